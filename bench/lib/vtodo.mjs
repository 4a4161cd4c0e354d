// The calendar objects the CalDAV benchmarks upload.

/** A VCALENDAR of one VTODO with this UID and these content lines. */
export const vcalendar = (uid, lines) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Tally bench//EN',
    'BEGIN:VTODO',
    `UID:${uid}`,
    'DTSTAMP:20261101T120000Z',
    ...lines,
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/**
 * The i-th of N todos the same for every server: a third due, a thirtieth weekly, a fifth with
 * notes; `related`: every twentieth a subtask of the next.
 */
export const benchVtodo = (i, { related = false } = {}) =>
  vcalendar(`bench-${i}`, [
    `SUMMARY:Todo ${i}`,
    ...(i % 3 === 0 ? [`DUE:202612${String((i % 28) + 1).padStart(2, '0')}T090000Z`] : []),
    ...(i % 30 === 0 ? ['RRULE:FREQ=WEEKLY'] : []),
    ...(i % 5 === 0 ? ['DESCRIPTION:Some notes about this todo'] : []),
    ...(related && i % 20 === 19 ? [`RELATED-TO:bench-${i + 1}`] : []),
  ]);
