import { intlDate, intlTime, type ServerTexts } from './texts.js';

/** 简体中文: "你", as the app (docs/languages/glossary.md). Chinese counts have no plural. */
export const zhCN: ServerTexts = {
  tag: 'zh-CN',
  dir: 'ltr',
  date: intlDate('zh-CN'),
  time: intlTime('zh-CN'),

  hello: (username) => `${username}，你好：`,
  verifyEmail: {
    subject: '确认你在 Tally 的电子邮件地址',
    intro: (email) => `请打开以下链接，确认 ${email} 是你在 Tally 使用的电子邮件地址：`,
    validity: '此链接只能使用一次，7 天内有效。',
    ignore: '如果你没有注册 Tally，也没有更改地址，可以忽略这封邮件。',
  },
  resetPassword: {
    subject: '重置你的 Tally 密码',
    intro: '有人（希望是你）请求重置你的 Tally 账户密码。要设置新密码，请打开以下链接：',
    validity:
      '此链接只能使用一次，1 小时内有效。设置新密码会让所有已登录你账户的设备退出登录，撤销所有个人 API 令牌，并关闭日历订阅（如需恢复，请在设置中生成新的订阅网址）。如果你的地址此前已验证，已关联的 Google 账户或单点登录账户会保持关联：设置中会显示它，你可以在那里取消关联。如果地址从未验证，关联会被移除，因为建立关联的人可能不是你。',
    ignore: '如果这不是你的请求，可以忽略这封邮件：你的密码保持不变。',
  },

  reminder: {
    title: (todo) => `提醒：${todo}`,
    due: (date, time) => `截止 ${date} ${time}`,
    test: '来自 Tally 的测试',
  },
  actions: {
    complete: '完成',
    'snooze-10m': '10 分钟后提醒',
    'snooze-1h': '1 小时后提醒',
    tomorrow: '明天',
  },

  pages: {
    invalidTitle: '此链接无效',
    invalidBody: '链接已过期，或其待办事项已完成或已删除。',
    usedTitle: '此链接已被使用',
    usedBody: '每条提醒的链接只能使用一次。',
    completed: '已完成。',
    snoozed: {
      'snooze-10m': '已推迟：提醒将在 10 分钟后再次出现。',
      'snooze-1h': '已推迟：提醒将在 1 小时后再次出现。',
      tomorrow: '已推迟：提醒将在明天再次出现。',
    },
    unsubscribeTitle: '停止每日摘要',
    unsubscribeButton: '退订',
    unsubscribedTitle: '每日摘要已关闭',
    unsubscribedBody: '可在“设置 → 通知”中重新开启。',
  },

  digest: {
    subject: (date, overdue, dueToday) =>
      `Tally ${date}：${overdue > 0 ? `${overdue} 项已逾期，` : ''}${dueToday} 项今天截止`,
    overdue: '已逾期',
    dueToday: '今天截止',
    startingToday: '今天开始',
    dueOn: (date) => `（截止 ${date}）`,
    at: (time) => ` ${time}`,
    nothing: '今天没有截止的待办事项。',
    yesterday: (done, streak) =>
      `昨天你完成了 ${done} 项待办事项` + (streak > 0 ? `；连续天数：${streak} 天。` : '。'),
    open: '打开 Tally',
    stop: '不再接收这些邮件',
  },

  channelOff: {
    subject: (channel) => `Tally 已关闭通知渠道“${channel}”`,
    body: (channel, settingsUrl) =>
      `Tally 连续 3 天无法向你的通知渠道“${channel}”发送消息，因此已将其关闭。` +
      `可在“设置 → 通知”中重新开启：${settingsUrl}`,
  },

  ungroupedCalendar: '待办事项',
};
