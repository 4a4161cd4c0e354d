import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { STATISTICS_RANGES, type StatisticsRange } from '@tally/contract/constants';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { activeLocale } from '#web/lib/date-format';
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

/** A whole percentage as the active language writes it: "40%", "40 %", "٤٠٪". */
const formatPercent = (percent: number) =>
  new Intl.NumberFormat(activeLocale(), { style: 'percent' }).format(percent / 100);

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
  const { t } = useLingui();
  const waiting = (text: string) =>
    offline ? (
      <p className="text-slate-700 dark:text-slate-300">
        <Trans>Statistics are not available offline. They load when you are back online.</Trans>
      </p>
    ) : (
      <LoadingText>{text}</LoadingText>
    );

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Your Statistics</Trans>
      </h1>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        <Trans>Track your productivity and app usage</Trans>
      </p>

      <Section title={t`All Time Statistics`}>
        {total.isPending ? (
          waiting(t`Loading statistics...`)
        ) : total.isError ? (
          <ErrorBanner
            message={errorMessage(total.error, msg`Load statistics failed`)}
            onRetry={() => void total.refetch()}
          />
        ) : (
          <dl className={gridClass}>
            <StatCard
              label={t`Todos Created`}
              value={total.data.todosCreated}
              thisWeek={thisWeek?.todosCreated}
            />
            <StatCard
              label={t`Todos Completed`}
              value={total.data.todosCompleted}
              thisWeek={thisWeek?.todosCompleted}
            />
            <StatCard
              label={t`Groups Created`}
              value={total.data.groupsCreated}
              thisWeek={thisWeek?.groupsCreated}
            />
            <StatCard label={t`Logins`} value={total.data.logins} thisWeek={thisWeek?.logins} />
          </dl>
        )}
      </Section>

      <Section
        title={t`Recent Activity`}
        action={<RangeSelector value={range} onChange={setRange} />}
      >
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
          {recent.isPending ? (
            waiting(t`Loading activity...`)
          ) : recent.isError ? (
            <ErrorBanner
              message={errorMessage(recent.error, msg`Load recent activity failed`)}
              onRetry={() => void recent.refetch()}
            />
          ) : (
            <div aria-busy={recent.isPlaceholderData}>
              <ActivityChart records={recent.data} range={range} />
            </div>
          )}
        </div>
      </Section>

      <Section title={t`Additional Statistics`}>
        {month.isError && (
          <ErrorBanner
            className="mb-4"
            message={errorMessage(month.error, msg`Load statistics failed`)}
            onRetry={() => void month.refetch()}
          />
        )}
        <dl className={gridClass}>
          <StatCard
            label={t`Task Completion Rate (Last 30 Days)`}
            value={
              month.data
                ? formatPercent(completionRate(month.data))
                : month.isError || offline
                  ? '—'
                  : t`Loading...`
            }
          />
          {total.data && (
            <>
              <StatCard label={t`Todos Deleted`} value={total.data.todosDeleted} />
              <StatCard label={t`Todos Updated`} value={total.data.todosUpdated} />
              <StatCard label={t`Groups Updated`} value={total.data.groupsUpdated} />
              <StatCard label={t`Groups Deleted`} value={total.data.groupsDeleted} />
              <StatCard label={t`Registrations`} value={total.data.registrations} />
              <StatCard label={t`Google Sign-ins`} value={total.data.googleAuths} />
              <StatCard label={t`Tokens Generated`} value={total.data.tokensGenerated} />
              <StatCard label={t`Refresh Tokens Created`} value={total.data.refreshTokensCreated} />
            </>
          )}
        </dl>
      </Section>

      <InsightsSection />
    </div>
  );
}
