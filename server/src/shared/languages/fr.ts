import { intlDate, intlTime, plural, type ServerTexts } from './texts.js';

/** Français: formal "vous" (docs/languages/glossary.md); a space before : and ; as French writes. */
export const fr: ServerTexts = {
  tag: 'fr',
  dir: 'ltr',
  date: intlDate('fr'),
  time: intlTime('fr'),

  hello: (username) => `Bonjour ${username},`,
  verifyEmail: {
    subject: 'Confirmez votre adresse e-mail pour Tally',
    intro: (email) =>
      `veuillez confirmer que ${email} est votre adresse e-mail pour Tally en ouvrant ce lien :`,
    validity: 'Le lien fonctionne une seule fois, pendant 7 jours.',
    ignore:
      'Si vous ne vous êtes pas inscrit à Tally et n’avez pas changé d’adresse, vous pouvez ignorer ce message.',
  },
  resetPassword: {
    subject: 'Réinitialisez votre mot de passe Tally',
    intro:
      'quelqu’un, vous espérons-le, a demandé à réinitialiser le mot de passe de votre compte Tally. Pour choisir un nouveau mot de passe, ouvrez ce lien :',
    validity:
      'Le lien fonctionne une seule fois, pendant 1 heure. Un nouveau mot de passe déconnecte tous les appareils connectés à votre compte, révoque tous les jetons d’API personnels et désactive le flux de calendrier (créez une nouvelle URL de flux dans les Paramètres si vous le voulez de nouveau). Un compte Google ou d’authentification unique lié le reste si votre adresse était déjà vérifiée : les Paramètres l’affichent, et vous pouvez l’y délier. Si l’adresse n’a jamais été vérifiée, le lien est supprimé, car il n’a peut-être pas été fait par vous.',
    ignore:
      'Si vous n’avez rien demandé, vous pouvez ignorer ce message : votre mot de passe reste inchangé.',
  },

  reminder: {
    title: (todo) => `Rappel : ${todo}`,
    due: (date, time) => `Échéance le ${date} à ${time}`,
    test: 'Un test de Tally',
  },
  actions: {
    complete: 'Terminer',
    'snooze-10m': 'Rappeler dans 10 min',
    'snooze-1h': 'Rappeler dans 1 heure',
    tomorrow: 'Demain',
  },

  pages: {
    invalidTitle: 'Ce lien ne fonctionne pas',
    invalidBody: 'Il a expiré, ou sa tâche est terminée ou supprimée.',
    usedTitle: 'Ce lien a déjà été utilisé',
    usedBody: 'Les liens d’un rappel ne fonctionnent qu’une fois.',
    completed: 'Terminée.',
    snoozed: {
      'snooze-10m': 'Reporté : le rappel reviendra dans 10 minutes.',
      'snooze-1h': 'Reporté : le rappel reviendra dans une heure.',
      tomorrow: 'Reporté : le rappel reviendra demain.',
    },
    unsubscribeTitle: 'Arrêter le récapitulatif quotidien',
    unsubscribeButton: 'Se désabonner',
    unsubscribedTitle: 'Le récapitulatif quotidien est désactivé',
    unsubscribedBody: 'Réactivez-le dans Paramètres → Notifications.',
  },

  digest: {
    subject: (date, overdue, dueToday) =>
      `Tally du ${date} : ${overdue > 0 ? `${overdue} en retard, ` : ''}${dueToday} à faire aujourd’hui`,
    overdue: 'En retard',
    dueToday: 'À faire aujourd’hui',
    startingToday: 'Commence aujourd’hui',
    dueOn: (date) => ` (échéance le ${date})`,
    at: (time) => ` à ${time}`,
    nothing: 'Rien n’est à faire aujourd’hui.',
    yesterday: (done, streak) =>
      `Hier, vous avez terminé ${plural('fr', done, { one: '# tâche', many: '# de tâches', other: '# tâches' })}` +
      (streak > 0
        ? ` ; votre série est de ${plural('fr', streak, { one: '# jour', many: '# de jours', other: '# jours' })}.`
        : '.'),
    open: 'Ouvrir Tally',
    stop: 'Ne plus recevoir ces e-mails',
  },

  channelOff: {
    subject: (channel) => `Tally a désactivé le canal « ${channel} »`,
    body: (channel, settingsUrl) =>
      `Tally n’a pas pu envoyer à votre canal de notification « ${channel} » pendant 3 jours, ` +
      `il est donc désactivé. Réactivez-le dans Paramètres → Notifications : ${settingsUrl}`,
  },

  ungroupedCalendar: 'Tâches',
};
