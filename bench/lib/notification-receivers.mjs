// The webhook stand-in and the loopback SMTP server of bench/notifications.mjs, in a process of
// their own: they keep every message they accept, and in the process that times the requests
// their heap made the collector run through the probes (decision 184).
import { startLocalReceivers } from '../../server/src/test/local-notify-receivers.ts';
import { startLocalSmtp } from '../../server/src/test/local-smtp.ts';

const receivers = await startLocalReceivers();
const smtp = await startLocalSmtp();
const counts = () => ({
  webhooks: receivers.received.filter((message) => message.service === 'webhook').length,
  mails: smtp.received.length,
  refused: receivers.refused.slice(0, 3),
});

process.on('message', async (message) => {
  if (message.type === 'secret') receivers.setSecret(message.name, message.secret);
  if (message.type === 'close') {
    await receivers.close();
    await smtp.close();
    process.send({ closed: true }, () => process.exit(0));
    return;
  }
  process.send(counts());
});
process.send({ origin: receivers.origin, smtpUrl: smtp.url });
