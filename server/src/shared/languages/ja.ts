import { intlDate, intlTime, type ServerTexts } from './texts.js';

/** 日本語: polite form, as the app (docs/languages/glossary.md). Japanese counts have no plural. */
export const ja: ServerTexts = {
  tag: 'ja',
  dir: 'ltr',
  date: intlDate('ja'),
  time: intlTime('ja'),

  hello: (username) => `${username} さん`,
  verifyEmail: {
    subject: 'Tally のメールアドレスを確認してください',
    intro: (email) =>
      `${email} が Tally で使うメールアドレスであることを、次のリンクを開いて確認してください:`,
    validity: 'このリンクは 1 回だけ、7 日間使えます。',
    ignore:
      'Tally に登録しておらず、アドレスも変更していない場合は、このメールを無視してください。',
  },
  resetPassword: {
    subject: 'Tally のパスワードを再設定',
    intro:
      'Tally アカウントのパスワードの再設定が依頼されました（ご本人からであることを願っています）。新しいパスワードを設定するには、次のリンクを開いてください:',
    validity:
      'このリンクは 1 回だけ、1 時間使えます。新しいパスワードを設定すると、アカウントにログインしているすべてのデバイスがログアウトし、すべての個人用 API トークンが無効になり、カレンダーフィードがオフになります（必要なら設定で新しいフィード URL を作成してください）。連携している Google アカウントやシングルサインオンのアカウントは、アドレスが以前に確認済みであれば連携したままです。設定に表示され、そこで連携を解除できます。アドレスが一度も確認されていない場合、連携は削除されます。連携したのがご本人とは限らないためです。',
    ignore: '心当たりがない場合は、このメールを無視してください。パスワードは変わりません。',
  },

  reminder: {
    title: (todo) => `リマインダー: ${todo}`,
    due: (date, time) => `期限 ${date} ${time}`,
    test: 'Tally からのテスト',
  },
  actions: {
    complete: '完了',
    'snooze-10m': '10 分後に再通知',
    'snooze-1h': '1 時間後に再通知',
    tomorrow: '明日',
  },

  pages: {
    invalidTitle: 'このリンクは使えません',
    invalidBody: '有効期限が切れたか、タスクが完了または削除されています。',
    usedTitle: 'このリンクはすでに使われています',
    usedBody: 'リマインダーのリンクは 1 回だけ使えます。',
    completed: '完了しました。',
    snoozed: {
      'snooze-10m': '延期しました: 10 分後にもう一度リマインダーが届きます。',
      'snooze-1h': '延期しました: 1 時間後にもう一度リマインダーが届きます。',
      tomorrow: '延期しました: 明日もう一度リマインダーが届きます。',
    },
    unsubscribeTitle: '毎日のまとめを停止',
    unsubscribeButton: '配信を停止',
    unsubscribedTitle: '毎日のまとめはオフです',
    unsubscribedBody: '設定 → 通知 でもう一度オンにできます。',
  },

  digest: {
    subject: (date, overdue, dueToday) =>
      `Tally ${date}: ${overdue > 0 ? `期限切れ ${overdue} 件、` : ''}今日が期限 ${dueToday} 件`,
    overdue: '期限切れ',
    dueToday: '今日が期限',
    startingToday: '今日開始',
    dueOn: (date) => `（期限 ${date}）`,
    at: (time) => ` ${time}`,
    nothing: '今日が期限のタスクはありません。',
    yesterday: (done, streak) =>
      `昨日は ${done} 件のタスクを完了しました` +
      (streak > 0 ? `。連続日数は ${streak} 日です。` : '。'),
    open: 'Tally を開く',
    stop: 'このメールの配信を停止',
  },

  channelOff: {
    subject: (channel) => `Tally が通知チャンネル「${channel}」をオフにしました`,
    body: (channel, settingsUrl) =>
      `Tally は通知チャンネル「${channel}」に 3 日間配信できなかったため、オフにしました。` +
      `設定 → 通知 でもう一度オンにできます: ${settingsUrl}`,
  },

  ungroupedCalendar: 'タスク',
};
