import { plural, msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Insights } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { useInsights } from '../api/get-insights';
import {
  figuresCsv,
  groupCsv,
  tagCsv,
  heatmapCsv,
  hourCsv,
  saveCsvFile,
  weekdayCsv,
} from '../lib/insights-csv';
import {
  dayCount,
  formatDuration,
  formatRate,
  hourRange,
  longDay,
  shortDay,
  weekComparison,
  weekdayNames,
} from '../lib/insights-format';
import { ChartCard } from './ChartCard';
import { ColumnChart } from './ColumnChart';
import { DataTable } from './DataTable';
import { GroupBars } from './GroupBars';
import { Section } from './Section';
import { YearHeatmap } from './YearHeatmap';

/** The heatmap's span: a year of whole weeks (the API allows 1-104). */
const WEEKS = 52;

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const HOUR_NAMES = HOURS.map(hourRange);
/** Every third hour under the hour columns. */
const HOUR_AXIS = HOURS.map((hour) => (hour % 3 === 0 ? String(hour) : ''));

/** The index of the largest value (the first of equals), or null when all are 0. */
function busiest(values: readonly number[]): number | null {
  let best: number | null = null;
  values.forEach((value, index) => {
    if (value > 0 && (best === null || value > (values[best] ?? 0))) best = index;
  });
  return best;
}

function Figure({ label, value, details }: { label: string; value: string; details: string[] }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums first-letter:uppercase dark:text-slate-100">
        {value}
      </dd>
      {details.map((detail) => (
        <dd key={detail} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {detail}
        </dd>
      ))}
    </div>
  );
}

/** Streak, time to complete, on-time rate and this week against last, as text. */
function Figures({ insights }: { insights: Insights }) {
  const { streak, leadTime, onTime, week } = insights;
  const { t } = useLingui();
  const longest = dayCount(streak.longest);
  const lastDay = streak.lastDay ? shortDay(streak.lastDay) : null;
  const p75 = formatDuration(leadTime.p75Hours);
  const { lastWeek } = week;
  const late = onTime.late;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <Figure
        label={t`Current streak`}
        value={dayCount(streak.current)}
        details={[
          t`Longest: ${longest}`,
          lastDay ? t`Last completion: ${lastDay}` : t`No completions yet`,
        ]}
      />
      <Figure
        label={t`Median time to complete`}
        value={formatDuration(leadTime.medianHours)}
        details={
          leadTime.sample === 0
            ? [t`No completed todos yet`]
            : [
                t`75th percentile: ${p75}`,
                plural(leadTime.sample, {
                  one: 'From # completed todo',
                  other: 'From # completed todos',
                }),
              ]
        }
      />
      <Figure
        label={t`On-time rate`}
        value={formatRate(onTime.rate)}
        details={
          onTime.rate === null
            ? [t`No completed todo had a due date`]
            : [
                plural(onTime.onTime, {
                  one: `# on time, ${late} late`,
                  other: `# on time, ${late} late`,
                }),
                t`Of todos with a due date`,
              ]
        }
      />
      <Figure
        label={t`Completed this week`}
        value={String(week.thisWeek)}
        details={[t`Last week: ${lastWeek}`, weekComparison(week.thisWeek, week.lastWeek)]}
      />
    </dl>
  );
}

function Charts({ insights }: { insights: Insights }) {
  const total = insights.heatmap.reduce((sum, day) => sum + day.completed, 0);
  const topWeekday = busiest(insights.byWeekday);
  const topHour = busiest(insights.byHour);
  const { t } = useLingui();
  const weekdays = weekdayNames();
  const weekdayAxis = weekdayNames('short');
  const topWeekdayName = topWeekday === null ? null : weekdays[topWeekday];
  const topHourRange = topHour === null ? null : hourRange(topHour);
  const completionsPerDay = t`Completions per day`;
  const byWeekday = t`Completions by weekday`;
  const byHour = t`Completions by hour`;
  const byGroup = t`Completions by group`;
  const byTag = t`Completions by tag`;
  const completed = t`Completed`;
  return (
    <div className="mt-4 grid gap-4 lg:grid-cols-2">
      <ChartCard
        className="lg:col-span-2"
        title={completionsPerDay}
        summary={plural(total, {
          one: `# completed in the last ${WEEKS} weeks`,
          other: `# completed in the last ${WEEKS} weeks`,
        })}
        csv={() => heatmapCsv(insights)}
        table={
          <DataTable
            scroll
            caption={completionsPerDay}
            headers={[t`Day`, completed]}
            rows={insights.heatmap.map((day) => [longDay(day.date), day.completed])}
          />
        }
      >
        <YearHeatmap days={insights.heatmap} label={t`Completions per day, last ${WEEKS} weeks`} />
      </ChartCard>

      <ChartCard
        title={byWeekday}
        summary={topWeekdayName ? t`Most on ${topWeekdayName}s` : undefined}
        csv={() => weekdayCsv(insights)}
        table={
          <DataTable
            caption={byWeekday}
            headers={[t`Weekday`, completed]}
            rows={insights.byWeekday.map((count, index) => [weekdays[index], count])}
          />
        }
      >
        <ColumnChart
          testId="weekday-bars"
          values={insights.byWeekday}
          names={weekdays}
          axisLabels={weekdayAxis}
          gap={8}
        />
      </ChartCard>

      <ChartCard
        title={byHour}
        summary={topHourRange ? t`Most at ${topHourRange}` : undefined}
        csv={() => hourCsv(insights)}
        table={
          <DataTable
            caption={byHour}
            headers={[t`Hour`, completed]}
            rows={insights.byHour.map((count, hour) => [HOUR_NAMES[hour], count])}
          />
        }
      >
        <ColumnChart
          testId="hour-bars"
          values={insights.byHour}
          names={HOUR_NAMES}
          axisLabels={HOUR_AXIS}
          gap={2}
        />
      </ChartCard>

      <ChartCard
        className="lg:col-span-2"
        title={byGroup}
        csv={() => groupCsv(insights)}
        table={
          <DataTable
            caption={byGroup}
            headers={[t`Group`, completed]}
            rows={insights.byGroup.map((group) => [group.name, group.completed])}
          />
        }
      >
        <GroupBars groups={insights.byGroup} />
      </ChartCard>

      {insights.byTag.length > 0 && (
        <ChartCard
          className="lg:col-span-2"
          title={byTag}
          csv={() => tagCsv(insights)}
          table={
            <DataTable
              caption={byTag}
              headers={[t`Tag`, completed]}
              rows={insights.byTag.map((tag) => [tag.name, tag.completed])}
            />
          }
        >
          <GroupBars groups={insights.byTag} testId="tag-bars" />
        </ChartCard>
      )}
    </div>
  );
}

/**
 * Insights (docs/product.md, Statistics screen): below the specification's sections, what the
 * last 52 weeks of completions say, in the user's days and hours. Every chart has a table and a
 * CSV of the same answer.
 */
export function InsightsSection() {
  const insights = useInsights(WEEKS);
  const { t } = useLingui();
  return (
    <Section title={t`Insights`}>
      {insights.isPending ? (
        <LoadingText>{t`Loading insights...`}</LoadingText>
      ) : insights.isError ? (
        <ErrorBanner
          message={errorMessage(insights.error, msg`Load insights failed`)}
          onRetry={() => void insights.refetch()}
        />
      ) : (
        <>
          <Figures insights={insights.data} />
          {insights.data.heatmap.some((day) => day.completed > 0) ? (
            <>
              <div className="mt-3 flex justify-end">
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={t`Download CSV of these figures`}
                  onClick={() => saveCsvFile(figuresCsv(insights.data))}
                >
                  <Trans>Download CSV</Trans>
                </Button>
              </div>
              <Charts insights={insights.data} />
            </>
          ) : (
            <p className="mt-4 rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600 dark:border-slate-600 dark:text-slate-400">
              <Trans>
                No todos completed in the last {WEEKS} weeks yet. Complete one and your insights
                start here.
              </Trans>
            </p>
          )}
        </>
      )}
    </Section>
  );
}
