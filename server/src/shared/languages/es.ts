import { intlDate, intlTime, plural, type ServerTexts } from './texts.js';

/** Español: informal "tú", as the app (docs/languages/glossary.md). */
export const es: ServerTexts = {
  tag: 'es',
  dir: 'ltr',
  date: intlDate('es'),
  time: intlTime('es'),

  hello: (username) => `Hola, ${username}:`,
  verifyEmail: {
    subject: 'Confirma tu dirección de correo para Tally',
    intro: (email) =>
      `confirma que ${email} es tu dirección de correo para Tally abriendo este enlace:`,
    validity: 'El enlace funciona una sola vez, durante 7 días.',
    ignore: 'Si no te registraste en Tally ni cambiaste tu dirección, puedes ignorar este mensaje.',
  },
  resetPassword: {
    subject: 'Restablece tu contraseña de Tally',
    intro:
      'alguien, esperamos que tú, pidió restablecer la contraseña de tu cuenta de Tally. Para elegir una contraseña nueva, abre este enlace:',
    validity:
      'El enlace funciona una sola vez, durante 1 hora. Una contraseña nueva cierra la sesión en todos los dispositivos conectados a tu cuenta, revoca todos los tokens de API personales y desactiva el feed del calendario (crea una nueva URL del feed en Ajustes si lo quieres de vuelta). Una cuenta de Google o de inicio de sesión único vinculada sigue vinculada si tu dirección ya estaba verificada: Ajustes la muestra y puedes desvincularla allí. Si la dirección nunca se verificó, el vínculo se elimina, ya que quizá no lo hiciste tú.',
    ignore: 'Si no lo pediste, puedes ignorar este mensaje: tu contraseña sigue igual.',
  },

  reminder: {
    title: (todo) => `Recordatorio: ${todo}`,
    due: (date, time) => `Vence el ${date} a las ${time}`,
    test: 'Una prueba de Tally',
  },
  actions: {
    complete: 'Completar',
    'snooze-10m': 'Posponer 10 min',
    'snooze-1h': 'Posponer 1 hora',
    tomorrow: 'Mañana',
  },

  pages: {
    invalidTitle: 'Este enlace no funciona',
    invalidBody: 'Ha caducado, o su tarea está completada o ya no existe.',
    usedTitle: 'Este enlace ya se usó',
    usedBody: 'Los enlaces de un recordatorio funcionan una sola vez.',
    completed: 'Completada.',
    snoozed: {
      'snooze-10m': 'Pospuesto: el recordatorio volverá en 10 minutos.',
      'snooze-1h': 'Pospuesto: el recordatorio volverá en una hora.',
      tomorrow: 'Pospuesto: el recordatorio volverá mañana.',
    },
    unsubscribeTitle: 'Dejar de recibir el resumen diario',
    unsubscribeButton: 'Darse de baja',
    unsubscribedTitle: 'El resumen diario está desactivado',
    unsubscribedBody: 'Vuelve a activarlo en Ajustes → Notificaciones.',
  },

  digest: {
    subject: (date, overdue, dueToday) =>
      `Tally del ${date}: ${overdue > 0 ? `${overdue} atrasadas, ` : ''}${dueToday} para hoy`,
    overdue: 'Atrasadas',
    dueToday: 'Vencen hoy',
    startingToday: 'Empiezan hoy',
    dueOn: (date) => ` (vencía el ${date})`,
    at: (time) => ` a las ${time}`,
    nothing: 'Hoy no vence nada.',
    yesterday: (done, streak) =>
      `Ayer completaste ${plural('es', done, { one: '# tarea', many: '# de tareas', other: '# tareas' })}` +
      (streak > 0
        ? `; tu racha es de ${plural('es', streak, { one: '# día', many: '# de días', other: '# días' })}.`
        : '.'),
    open: 'Abrir Tally',
    stop: 'Dejar de recibir estos correos',
  },

  channelOff: {
    subject: (channel) => `Tally desactivó el canal «${channel}»`,
    body: (channel, settingsUrl) =>
      `Tally no pudo entregar nada a tu canal de notificaciones «${channel}» durante 3 días, ` +
      `así que está desactivado. Vuelve a activarlo en Ajustes → Notificaciones: ${settingsUrl}`,
  },

  ungroupedCalendar: 'Tareas',
};
