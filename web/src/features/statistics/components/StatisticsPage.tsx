import { useState } from 'react';
import { STATISTICS_RANGES, type StatisticsRange } from '@tally/contract/constants';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useOffline } from '#web/lib/online';
import { useRecentStatistics } from '../api/get-recent-statistics';
import { useSinceStatistics } from '../api/get-since-statistics';
import { useTotalStatistics } from '../api/get-total-statistics';
import { ActivityChart } from './ActivityChart';
import { InsightsSection } from './InsightsSection';
import { RangeSelector } from './RangeSelector';
import { Section } from './Section';
import { StatCard } from './StatCard';
import { completionRate } from '../lib/completion-rate';

const gridClass = 'grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4';

/** /statistics: totals with "+N this week", recent activity, additional figures, insights. */
export function StatisticsPage() {
  const [range, setRange] = useState<StatisticsRange>(STATISTICS_RANGES[0]);
  const total = useTotalStatistics();
  const week = useSinceStatistics(7);
  const month = useSinceStatistics(30);
  const recent = useRecentStatistics(range);
  const thisWeek = week.data;
  // Offline, a query with nothing saved waits for the network: say so rather than load for ever.
  const offline = useOffline();
  const waiting = (text: string) =>
    offline ? (
      <p className="text-slate-700 dark:text-slate-300">
        Statistics are not available offline. They load when you are back online.
      </p>
    ) : (
      <LoadingText>{text}</LoadingText>
    );

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">Your Statistics</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        Track your productivity and app usage
      </p>

      <Section title="All Time Statistics">
        {total.isPending ? (
          waiting('Loading statistics...')
        ) : total.isError ? (
          <ErrorBanner
            message={errorMessage(total.error, 'Load statistics')}
            onRetry={() => void total.refetch()}
          />
        ) : (
          <dl className={gridClass}>
            <StatCard
              label="Todos Created"
              value={total.data.todosCreated}
              thisWeek={thisWeek?.todosCreated}
            />
            <StatCard
              label="Todos Completed"
              value={total.data.todosCompleted}
              thisWeek={thisWeek?.todosCompleted}
            />
            <StatCard
              label="Groups Created"
              value={total.data.groupsCreated}
              thisWeek={thisWeek?.groupsCreated}
            />
            <StatCard label="Logins" value={total.data.logins} thisWeek={thisWeek?.logins} />
          </dl>
        )}
      </Section>

      <Section title="Recent Activity" action={<RangeSelector value={range} onChange={setRange} />}>
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
          {recent.isPending ? (
            waiting('Loading activity...')
          ) : recent.isError ? (
            <ErrorBanner
              message={errorMessage(recent.error, 'Load recent activity')}
              onRetry={() => void recent.refetch()}
            />
          ) : (
            <div aria-busy={recent.isPlaceholderData}>
              <ActivityChart records={recent.data} range={range} />
            </div>
          )}
        </div>
      </Section>

      <Section title="Additional Statistics">
        {month.isError && (
          <ErrorBanner
            className="mb-4"
            message={errorMessage(month.error, 'Load statistics')}
            onRetry={() => void month.refetch()}
          />
        )}
        <dl className={gridClass}>
          <StatCard
            label="Task Completion Rate (Last 30 Days)"
            value={
              month.data
                ? `${completionRate(month.data)}%`
                : month.isError || offline
                  ? '—'
                  : 'Loading...'
            }
          />
          {total.data && (
            <>
              <StatCard label="Todos Deleted" value={total.data.todosDeleted} />
              <StatCard label="Todos Updated" value={total.data.todosUpdated} />
              <StatCard label="Groups Updated" value={total.data.groupsUpdated} />
              <StatCard label="Groups Deleted" value={total.data.groupsDeleted} />
              <StatCard label="Registrations" value={total.data.registrations} />
              <StatCard label="Google Sign-ins" value={total.data.googleAuths} />
              <StatCard label="Tokens Generated" value={total.data.tokensGenerated} />
              <StatCard label="Refresh Tokens Created" value={total.data.refreshTokensCreated} />
            </>
          )}
        </dl>
      </Section>

      <InsightsSection />
    </div>
  );
}
