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
  WEEKDAYS,
  formatDuration,
  formatRate,
  hourRange,
  longDay,
  plural,
  shortDay,
  weekComparison,
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
const WEEKDAY_AXIS = WEEKDAYS.map((name) => name.slice(0, 3));

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
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <Figure
        label="Current streak"
        value={plural(streak.current, 'day')}
        details={[
          `Longest: ${plural(streak.longest, 'day')}`,
          streak.lastDay ? `Last completion: ${shortDay(streak.lastDay)}` : 'No completions yet',
        ]}
      />
      <Figure
        label="Median time to complete"
        value={formatDuration(leadTime.medianHours)}
        details={
          leadTime.sample === 0
            ? ['No completed todos yet']
            : [
                `75th percentile: ${formatDuration(leadTime.p75Hours)}`,
                `From ${plural(leadTime.sample, 'completed todo')}`,
              ]
        }
      />
      <Figure
        label="On-time rate"
        value={formatRate(onTime.rate)}
        details={
          onTime.rate === null
            ? ['No completed todo had a due date']
            : [`${onTime.onTime} on time, ${onTime.late} late`, 'Of todos with a due date']
        }
      />
      <Figure
        label="Completed this week"
        value={String(week.thisWeek)}
        details={[`Last week: ${week.lastWeek}`, weekComparison(week.thisWeek, week.lastWeek)]}
      />
    </dl>
  );
}

function Charts({ insights }: { insights: Insights }) {
  const total = insights.heatmap.reduce((sum, day) => sum + day.completed, 0);
  const topWeekday = busiest(insights.byWeekday);
  const topHour = busiest(insights.byHour);
  return (
    <div className="mt-4 grid gap-4 lg:grid-cols-2">
      <ChartCard
        className="lg:col-span-2"
        title="Completions per day"
        summary={`${total} completed in the last ${WEEKS} weeks`}
        csv={() => heatmapCsv(insights)}
        table={
          <DataTable
            scroll
            caption="Completions per day"
            headers={['Day', 'Completed']}
            rows={insights.heatmap.map((day) => [longDay(day.date), day.completed])}
          />
        }
      >
        <YearHeatmap days={insights.heatmap} label={`Completions per day, last ${WEEKS} weeks`} />
      </ChartCard>

      <ChartCard
        title="Completions by weekday"
        summary={topWeekday === null ? undefined : `Most on ${WEEKDAYS[topWeekday]}s`}
        csv={() => weekdayCsv(insights)}
        table={
          <DataTable
            caption="Completions by weekday"
            headers={['Weekday', 'Completed']}
            rows={insights.byWeekday.map((completed, index) => [WEEKDAYS[index], completed])}
          />
        }
      >
        <ColumnChart
          testId="weekday-bars"
          values={insights.byWeekday}
          names={WEEKDAYS}
          axisLabels={WEEKDAY_AXIS}
          gap={8}
        />
      </ChartCard>

      <ChartCard
        title="Completions by hour"
        summary={topHour === null ? undefined : `Most at ${hourRange(topHour)}`}
        csv={() => hourCsv(insights)}
        table={
          <DataTable
            caption="Completions by hour"
            headers={['Hour', 'Completed']}
            rows={insights.byHour.map((completed, hour) => [HOUR_NAMES[hour], completed])}
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
        title="Completions by group"
        csv={() => groupCsv(insights)}
        table={
          <DataTable
            caption="Completions by group"
            headers={['Group', 'Completed']}
            rows={insights.byGroup.map((group) => [group.name, group.completed])}
          />
        }
      >
        <GroupBars groups={insights.byGroup} />
      </ChartCard>

      {insights.byTag.length > 0 && (
        <ChartCard
          className="lg:col-span-2"
          title="Completions by tag"
          csv={() => tagCsv(insights)}
          table={
            <DataTable
              caption="Completions by tag"
              headers={['Tag', 'Completed']}
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
  return (
    <Section title="Insights">
      {insights.isPending ? (
        <LoadingText>Loading insights...</LoadingText>
      ) : insights.isError ? (
        <ErrorBanner
          message={errorMessage(insights.error, 'Load insights')}
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
                  aria-label="Download CSV of these figures"
                  onClick={() => saveCsvFile(figuresCsv(insights.data))}
                >
                  Download CSV
                </Button>
              </div>
              <Charts insights={insights.data} />
            </>
          ) : (
            <p className="mt-4 rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600 dark:border-slate-600 dark:text-slate-400">
              No todos completed in the last {WEEKS} weeks yet. Complete one and your insights start
              here.
            </p>
          )}
        </>
      )}
    </Section>
  );
}
