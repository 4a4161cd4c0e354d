import { intlDate, intlTime, plural, type ServerTexts } from './texts.js';

/**
 * العربية: right to left, with the six plural forms Intl.PluralRules gives (zero, one, two, few,
 * many, other) wherever a count meets a noun; terms from docs/languages/glossary.md.
 */
export const ar: ServerTexts = {
  tag: 'ar',
  dir: 'rtl',
  date: intlDate('ar'),
  time: intlTime('ar'),

  hello: (username) => `مرحبًا ${username}،`,
  verifyEmail: {
    subject: 'أكّد عنوان بريدك الإلكتروني في Tally',
    intro: (email) => `يُرجى تأكيد أن ${email} هو عنوان بريدك الإلكتروني في Tally بفتح هذا الرابط:`,
    validity: 'يعمل الرابط مرة واحدة، لمدة 7 أيام.',
    ignore: 'إذا لم تشترك في Tally ولم تغيّر عنوانك، يمكنك تجاهل هذه الرسالة.',
  },
  resetPassword: {
    subject: 'أعد تعيين كلمة مرور Tally',
    intro:
      'طلب أحدهم، ونأمل أن تكون أنت، إعادة تعيين كلمة مرور حسابك في Tally. لاختيار كلمة مرور جديدة، افتح هذا الرابط:',
    validity:
      'يعمل الرابط مرة واحدة، لمدة ساعة واحدة. يؤدي تعيين كلمة مرور جديدة إلى تسجيل خروج كل جهاز مسجّل الدخول إلى حسابك، وإلغاء كل رموز API الشخصية، وإيقاف موجز التقويم (أنشئ عنوان موجز جديدًا في الإعدادات إن أردت استعادته). يبقى حساب Google أو حساب الدخول الموحّد المرتبط مرتبطًا إذا كان عنوانك قد تم التحقق منه من قبل: تعرضه الإعدادات، ويمكنك إلغاء ربطه هناك. وإذا لم يتم التحقق من العنوان قط، يُزال الربط، لأن من أنشأه قد لا يكون أنت.',
    ignore: 'إذا لم تطلب ذلك، يمكنك تجاهل هذه الرسالة: تبقى كلمة مرورك كما هي.',
  },

  reminder: {
    title: (todo) => `تذكير: ${todo}`,
    due: (date, time) => `مستحقة في ${date} الساعة ${time}`,
    test: 'اختبار من Tally',
  },
  actions: {
    complete: 'إكمال',
    'snooze-10m': 'تأجيل 10 دقائق',
    'snooze-1h': 'تأجيل ساعة',
    tomorrow: 'غدًا',
  },

  pages: {
    invalidTitle: 'هذا الرابط لا يعمل',
    invalidBody: 'انتهت صلاحيته، أو أن مهمته مكتملة أو محذوفة.',
    usedTitle: 'سبق استخدام هذا الرابط',
    usedBody: 'تعمل روابط كل تذكير مرة واحدة فقط.',
    completed: 'اكتملت.',
    snoozed: {
      'snooze-10m': 'تم التأجيل: سيعود التذكير بعد 10 دقائق.',
      'snooze-1h': 'تم التأجيل: سيعود التذكير بعد ساعة.',
      tomorrow: 'تم التأجيل: سيعود التذكير غدًا.',
    },
    unsubscribeTitle: 'إيقاف الملخص اليومي',
    unsubscribeButton: 'إلغاء الاشتراك',
    unsubscribedTitle: 'الملخص اليومي متوقف',
    unsubscribedBody: 'أعد تشغيله من الإعدادات ← الإشعارات.',
  },

  digest: {
    subject: (date, overdue, dueToday) =>
      `Tally ليوم ${date}: ${overdue > 0 ? `المتأخرة ${overdue}، ` : ''}المستحقة اليوم ${dueToday}`,
    overdue: 'متأخرة',
    dueToday: 'مستحقة اليوم',
    startingToday: 'تبدأ اليوم',
    dueOn: (date) => ` (تاريخ الاستحقاق ${date})`,
    at: (time) => ` الساعة ${time}`,
    nothing: 'لا شيء مستحق اليوم.',
    yesterday: (done, streak) =>
      plural('ar', done, {
        zero: 'لم تُكمل أمس أي مهمة',
        one: 'أكملت أمس مهمة واحدة',
        two: 'أكملت أمس مهمتين',
        few: 'أكملت أمس # مهام',
        many: 'أكملت أمس # مهمة',
        other: 'أكملت أمس # مهمة',
      }) +
      (streak > 0
        ? `؛ سلسلتك ${plural('ar', streak, {
            one: 'يوم واحد',
            two: 'يومان',
            few: '# أيام',
            many: '# يومًا',
            other: '# يوم',
          })}.`
        : '.'),
    open: 'افتح Tally',
    stop: 'أوقف هذه الرسائل',
  },

  channelOff: {
    subject: (channel) => `أوقف Tally قناة الإشعارات «${channel}»`,
    body: (channel, settingsUrl) =>
      `تعذّر على Tally التسليم إلى قناة الإشعارات «${channel}» لمدة 3 أيام، لذا أُوقفت. ` +
      `أعد تشغيلها من الإعدادات ← الإشعارات: ${settingsUrl}`,
  },

  ungroupedCalendar: 'المهام',
};
