import type { Insights } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { emptyInsights } from '#web/test/fake-api';
import {
  figuresCsv,
  groupCsv,
  heatmapCsv,
  hourCsv,
  tagCsv,
  toCsv,
  weekdayCsv,
} from './insights-csv';

const insights: Insights = {
  ...emptyInsights(1, '2026-03-04'),
  byWeekday: [3, 0, 1, 0, 0, 0, 2],
  byGroup: [
    { groupId: 7, name: 'Work, "deep"', color: '#EF4444', completed: 4 },
    { groupId: 8, name: '=HYPERLINK("x")', color: '#10B981', completed: 1 },
    { groupId: null, name: 'No Group', color: null, completed: 1 },
  ],
  byTag: [
    { name: 'home', color: '#10B981', completed: 2 },
    { name: '@sum', color: null, completed: 1 },
  ],
};
insights.heatmap[1] = { date: '2026-03-03', completed: 5 };

describe('the Insights CSV files (RFC 4180)', () => {
  it('lists the heatmap exactly as the API does: every day, oldest first', () => {
    const file = heatmapCsv(insights);
    expect(file.name).toBe('tally-completions-per-day-2026-03-04.csv');
    expect(file.text).toBe('date,completed\r\n2026-03-02,0\r\n2026-03-03,5\r\n2026-03-04,0\r\n');
  });

  it('names weekdays, numbers hours 0-23 and quotes group names', () => {
    expect(weekdayCsv(insights).text.split('\r\n').slice(0, 3)).toEqual([
      'weekday,completed',
      'Monday,3',
      'Tuesday,0',
    ]);
    const hours = hourCsv(insights).text.split('\r\n');
    expect(hours[1]).toBe('0,0');
    expect(hours[24]).toBe('23,0');
    expect(groupCsv(insights).text).toBe(
      'group_id,group,color,completed\r\n' +
        '7,"Work, ""deep""",#EF4444,4\r\n' +
        // A name that starts like a formula is not run by a spreadsheet.
        '8,"\'=HYPERLINK(""x"")",#10B981,1\r\n' +
        ',No Group,,1\r\n',
    );
    expect(tagCsv(insights)).toEqual({
      name: 'tally-completions-by-tag-2026-03-04.csv',
      text: "tag,color,completed\r\nhome,#10B981,2\r\n'@sum,,1\r\n",
    });
  });

  it('writes the figures one per line, empty when not measured', () => {
    const lines = figuresCsv(insights).text.split('\r\n');
    expect(lines).toContain('current_streak_days,0');
    expect(lines).toContain('last_day_with_completion,');
    expect(lines).toContain('median_hours_to_complete,');
    expect(lines).toContain('from,2026-03-02');
  });

  it('quotes line breaks too', () => {
    expect(toCsv(['a'], [['x\ny']])).toBe('a\r\n"x\ny"\r\n');
  });
});
