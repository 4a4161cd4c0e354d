import { intlDate, intlTime, plural, type ServerTexts } from './texts.js';

/** Deutsch: informal "du", as the app (docs/languages/glossary.md). */
export const de: ServerTexts = {
  tag: 'de',
  dir: 'ltr',
  date: intlDate('de'),
  time: intlTime('de'),

  hello: (username) => `Hallo ${username},`,
  verifyEmail: {
    subject: 'Bestätige deine E-Mail-Adresse für Tally',
    intro: (email) =>
      `bitte bestätige, dass ${email} deine E-Mail-Adresse für Tally ist, indem du diesen Link öffnest:`,
    validity: 'Der Link funktioniert einmal, 7 Tage lang.',
    ignore:
      'Wenn du dich nicht bei Tally registriert und deine Adresse nicht geändert hast, kannst du diese Nachricht ignorieren.',
  },
  resetPassword: {
    subject: 'Setze dein Tally-Passwort zurück',
    intro:
      'jemand, hoffentlich du, möchte das Passwort deines Tally-Kontos zurücksetzen. Um ein neues Passwort zu wählen, öffne diesen Link:',
    validity:
      'Der Link funktioniert einmal, 1 Stunde lang. Ein neues Passwort meldet jedes Gerät ab, das bei deinem Konto angemeldet ist, widerruft jedes persönliche API-Token und schaltet den Kalender-Feed aus (erstelle in den Einstellungen eine neue Feed-URL, wenn du ihn wieder möchtest). Ein verknüpftes Google- oder Single-Sign-on-Konto bleibt verknüpft, wenn deine Adresse schon vorher bestätigt war: Die Einstellungen zeigen es, und du kannst die Verknüpfung dort lösen. War die Adresse nie bestätigt, wird die Verknüpfung entfernt, da sie vielleicht nicht von dir stammt.',
    ignore:
      'Wenn du das nicht angefordert hast, kannst du diese Nachricht ignorieren: Dein Passwort bleibt, wie es ist.',
  },

  reminder: {
    title: (todo) => `Erinnerung: ${todo}`,
    due: (date, time) => `Fällig am ${date} um ${time}`,
    test: 'Ein Test von Tally',
  },
  actions: {
    complete: 'Erledigen',
    'snooze-10m': 'In 10 Min. erinnern',
    'snooze-1h': 'In 1 Stunde erinnern',
    tomorrow: 'Morgen',
  },

  pages: {
    invalidTitle: 'Dieser Link funktioniert nicht',
    invalidBody: 'Er ist abgelaufen, oder seine Aufgabe ist erledigt oder gelöscht.',
    usedTitle: 'Dieser Link wurde schon verwendet',
    usedBody: 'Die Links einer Erinnerung funktionieren nur einmal.',
    completed: 'Erledigt.',
    snoozed: {
      'snooze-10m': 'Verschoben: Die Erinnerung kommt in 10 Minuten wieder.',
      'snooze-1h': 'Verschoben: Die Erinnerung kommt in einer Stunde wieder.',
      tomorrow: 'Verschoben: Die Erinnerung kommt morgen wieder.',
    },
    unsubscribeTitle: 'Die tägliche Übersicht abbestellen',
    unsubscribeButton: 'Abbestellen',
    unsubscribedTitle: 'Die tägliche Übersicht ist aus',
    unsubscribedBody: 'Schalte sie unter Einstellungen → Benachrichtigungen wieder ein.',
  },

  digest: {
    subject: (date, overdue, dueToday) =>
      `Tally für ${date}: ${overdue > 0 ? `${overdue} überfällig, ` : ''}${dueToday} heute fällig`,
    overdue: 'Überfällig',
    dueToday: 'Heute fällig',
    startingToday: 'Beginnt heute',
    dueOn: (date) => ` (fällig am ${date})`,
    at: (time) => ` um ${time}`,
    nothing: 'Heute ist nichts fällig.',
    yesterday: (done, streak) =>
      `Gestern hast du ${plural('de', done, { one: '# Aufgabe', other: '# Aufgaben' })} erledigt` +
      (streak > 0
        ? `; deine Serie: ${plural('de', streak, { one: '# Tag', other: '# Tage' })}.`
        : '.'),
    open: 'Tally öffnen',
    stop: 'Diese E-Mails abbestellen',
  },

  channelOff: {
    subject: (channel) => `Tally hat den Kanal „${channel}“ ausgeschaltet`,
    body: (channel, settingsUrl) =>
      `Tally konnte 3 Tage lang nichts an deinen Benachrichtigungskanal „${channel}“ zustellen, ` +
      `deshalb ist er ausgeschaltet. Schalte ihn unter Einstellungen → Benachrichtigungen wieder ein: ${settingsUrl}`,
  },

  ungroupedCalendar: 'Aufgaben',
};
