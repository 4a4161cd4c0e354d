import type { ServerTexts } from './texts.js';

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * English, the source: the texts as they were before there were languages, which the
 * specification and the tests fix. Dates and times stay as ISO 8601 writes them, as they did.
 */
export const en: ServerTexts = {
  tag: 'en',
  dir: 'ltr',
  date: (iso) => iso,
  time: (hhmm) => hhmm,

  hello: (username) => `Hello ${username},`,
  verifyEmail: {
    subject: 'Confirm your e-mail address for Tally',
    intro: (email) =>
      `please confirm that ${email} is your e-mail address for Tally by opening this link:`,
    validity: 'The link works once, for 7 days.',
    ignore: 'If you did not sign up for Tally or change your address, you can ignore this message.',
  },
  resetPassword: {
    subject: 'Reset your Tally password',
    intro:
      'someone, hopefully you, asked to reset the password of your Tally account. To choose a new password, open this link:',
    validity:
      'The link works once, for 1 hour. Setting a new password signs out every device signed in to your account, revokes every personal API token and turns the calendar feed off (make a new feed URL in Settings if you want it back). A linked Google or single sign-on account stays linked if your address was verified before: Settings shows it, and you can unlink it there. If the address was never verified, the link is removed, since whoever made it may not be you.',
    ignore:
      'If you did not ask for this, you can ignore this message: your password stays as it is.',
  },

  reminder: {
    title: (todo) => `Reminder: ${todo}`,
    due: (date, time) => `Due ${date} at ${time}`,
    test: 'A test from Tally',
  },
  actions: {
    complete: 'Complete',
    'snooze-10m': 'Snooze 10 min',
    'snooze-1h': 'Snooze 1 hour',
    tomorrow: 'Tomorrow',
  },

  pages: {
    invalidTitle: 'This link does not work',
    invalidBody: 'It has expired, or its todo is done or gone.',
    usedTitle: 'This link was used already',
    usedBody: "Each reminder's links work once.",
    completed: 'Completed.',
    snoozed: {
      'snooze-10m': 'Snoozed: the reminder comes back in 10 minutes.',
      'snooze-1h': 'Snoozed: the reminder comes back in an hour.',
      tomorrow: 'Snoozed: the reminder comes back tomorrow.',
    },
    unsubscribeTitle: 'Stop the daily digest',
    unsubscribeButton: 'Unsubscribe',
    unsubscribedTitle: 'The daily digest is off',
    unsubscribedBody: 'Turn it on again in Settings → Notifications.',
  },

  digest: {
    subject: (date, overdue, dueToday) =>
      `Tally for ${date}: ${overdue > 0 ? `${overdue} overdue, ` : ''}${dueToday} due today`,
    overdue: 'Overdue',
    dueToday: 'Due today',
    startingToday: 'Starting today',
    dueOn: (date) => ` (due ${date})`,
    at: (time) => ` at ${time}`,
    nothing: 'Nothing is due today.',
    yesterday: (done, streak) =>
      `Yesterday you completed ${count(done, 'todo')}` +
      (streak > 0 ? `; your streak is ${count(streak, 'day')}.` : '.'),
    open: 'Open Tally',
    stop: 'Stop these e-mails',
  },

  channelOff: {
    subject: (channel) => `Tally turned off the channel "${channel}"`,
    body: (channel, settingsUrl) =>
      `Tally could not deliver to your notification channel "${channel}" for 3 days, ` +
      `so it is turned off. Turn it on again in Settings → Notifications: ${settingsUrl}`,
  },

  ungroupedCalendar: 'Todos',
};
