import { intlDate, intlTime, plural, type ServerTexts } from './texts.js';

/** Português (Brasil): "você", as the app (docs/languages/glossary.md). */
export const ptBR: ServerTexts = {
  tag: 'pt-BR',
  dir: 'ltr',
  date: intlDate('pt-BR'),
  time: intlTime('pt-BR'),

  hello: (username) => `Olá, ${username},`,
  verifyEmail: {
    subject: 'Confirme seu endereço de e-mail no Tally',
    intro: (email) =>
      `confirme que ${email} é o seu endereço de e-mail no Tally abrindo este link:`,
    validity: 'O link funciona uma vez, por 7 dias.',
    ignore: 'Se você não se cadastrou no Tally nem mudou seu endereço, pode ignorar esta mensagem.',
  },
  resetPassword: {
    subject: 'Redefina sua senha do Tally',
    intro:
      'alguém, esperamos que você, pediu para redefinir a senha da sua conta do Tally. Para escolher uma nova senha, abra este link:',
    validity:
      'O link funciona uma vez, por 1 hora. Definir uma nova senha desconecta todos os dispositivos conectados à sua conta, revoga todos os tokens de API pessoais e desativa o feed do calendário (crie uma nova URL de feed em Configurações se quiser de volta). Uma conta do Google ou de login único vinculada continua vinculada se o seu endereço já estava verificado: Configurações mostra a conta, e você pode desvinculá-la lá. Se o endereço nunca foi verificado, o vínculo é removido, pois quem o fez pode não ter sido você.',
    ignore: 'Se você não pediu isso, pode ignorar esta mensagem: sua senha continua a mesma.',
  },

  reminder: {
    title: (todo) => `Lembrete: ${todo}`,
    due: (date, time) => `Vence em ${date} às ${time}`,
    test: 'Um teste do Tally',
  },
  actions: {
    complete: 'Concluir',
    'snooze-10m': 'Adiar 10 min',
    'snooze-1h': 'Adiar 1 hora',
    tomorrow: 'Amanhã',
  },

  pages: {
    invalidTitle: 'Este link não funciona',
    invalidBody: 'Ele expirou, ou a tarefa dele foi concluída ou não existe mais.',
    usedTitle: 'Este link já foi usado',
    usedBody: 'Os links de um lembrete funcionam uma vez.',
    completed: 'Concluída.',
    snoozed: {
      'snooze-10m': 'Adiado: o lembrete volta em 10 minutos.',
      'snooze-1h': 'Adiado: o lembrete volta em uma hora.',
      tomorrow: 'Adiado: o lembrete volta amanhã.',
    },
    unsubscribeTitle: 'Parar o resumo diário',
    unsubscribeButton: 'Cancelar inscrição',
    unsubscribedTitle: 'O resumo diário está desativado',
    unsubscribedBody: 'Ative-o de novo em Configurações → Notificações.',
  },

  digest: {
    subject: (date, overdue, dueToday) =>
      `Tally de ${date}: ${overdue > 0 ? `${overdue} atrasadas, ` : ''}${dueToday} para hoje`,
    overdue: 'Atrasadas',
    dueToday: 'Vencem hoje',
    startingToday: 'Começam hoje',
    dueOn: (date) => ` (venceu em ${date})`,
    at: (time) => ` às ${time}`,
    nothing: 'Nada vence hoje.',
    yesterday: (done, streak) =>
      `Ontem você concluiu ${plural('pt-BR', done, { one: '# tarefa', many: '# de tarefas', other: '# tarefas' })}` +
      (streak > 0
        ? `; sua sequência é de ${plural('pt-BR', streak, { one: '# dia', many: '# de dias', other: '# dias' })}.`
        : '.'),
    open: 'Abrir o Tally',
    stop: 'Parar estes e-mails',
  },

  channelOff: {
    subject: (channel) => `O Tally desativou o canal "${channel}"`,
    body: (channel, settingsUrl) =>
      `O Tally não conseguiu entregar ao seu canal de notificações "${channel}" por 3 dias, ` +
      `então ele foi desativado. Ative-o de novo em Configurações → Notificações: ${settingsUrl}`,
  },

  ungroupedCalendar: 'Tarefas',
};
