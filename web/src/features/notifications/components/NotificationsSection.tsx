import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import type {
  Channel,
  ChannelKind,
  ChannelTestResult,
  CreateChannelBody,
  Delivery,
} from '@tally/contract';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { SelectField, TextField } from '#web/components/FormField';
import { LoadingText } from '#web/components/LoadingText';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useCreateChannel } from '../api/create-channel';
import { LOAD_CHANNELS_OPERATION, useChannels } from '../api/get-channels';
import { LOAD_DELIVERIES_OPERATION, useDeliveries } from '../api/get-deliveries';
import { useRedeliver } from '../api/redeliver';
import { useRemoveChannel } from '../api/remove-channel';
import { useTestChannel } from '../api/test-channel';
import { useUpdateChannel } from '../api/update-channel';
import { QuietHoursAndDigest } from './QuietHoursAndDigest';

const hintClass = 'text-sm text-slate-600 dark:text-slate-400';

const KINDS: { value: ChannelKind; label: MessageDescriptor | string }[] = [
  { value: 'email', label: msg`E-mail` },
  { value: 'ntfy', label: 'ntfy' },
  { value: 'gotify', label: 'Gotify' },
  { value: 'pushover', label: 'Pushover' },
  { value: 'webhook', label: msg`Webhook` },
];
/** The kind's name in the active language (the services' names are the same in every one). */
function useKindLabel() {
  const { i18n } = useLingui();
  return (kind: ChannelKind) => {
    const label = KINDS.find((k) => k.value === kind)?.label ?? kind;
    return typeof label === 'string' ? label : i18n._(label);
  };
}

/** The fields each kind asks for, in the order shown. */
const FIELDS: Record<
  ChannelKind,
  { name: 'url' | 'topic' | 'userKey' | 'token'; label: MessageDescriptor }[]
> = {
  // To the account's verified address: nothing to fill in.
  email: [],
  ntfy: [
    { name: 'url', label: msg`Server URL` },
    { name: 'topic', label: msg`Topic` },
    { name: 'token', label: msg`Access token (optional)` },
  ],
  gotify: [
    { name: 'url', label: msg`Server URL` },
    { name: 'token', label: msg`App token` },
  ],
  pushover: [
    { name: 'userKey', label: msg`User key` },
    { name: 'token', label: msg`API token` },
  ],
  webhook: [{ name: 'url', label: msg`URL` }],
};

/** A delivery's state as the log names it. */
const DELIVERY_STATES: Record<Delivery['state'], MessageDescriptor> = {
  pending: msg`pending`,
  sent: msg`sent`,
  failed: msg`failed`,
  dropped: msg`dropped`,
};

const CHANNEL_FIELDS: readonly (string | null)[] = ['url', 'topic', 'userKey', 'token'];

/** The field a server refusal names ("url must be …"), so the sentence sits beside it. */
const fieldOf = (error: unknown) =>
  error instanceof ApiError && CHANNEL_FIELDS.includes(error.field) ? error.field : null;

const when = (instant: string) => new Date(instant).toLocaleString();

/**
 * Settings → Notifications: where reminders go besides this browser's Web Push (ntfy, Gotify,
 * Pushover) and webhooks that also hear of todo and group events. Each channel can send a test
 * and say what came back; a webhook shows its last deliveries with Redeliver.
 */
export function NotificationsSection() {
  const { t } = useLingui();
  const kindLabel = useKindLabel();
  const headingId = useId();
  const channels = useChannels();
  const [status, setStatus] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id={headingId} className="mb-4 text-lg font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Notifications</Trans>
      </h2>
      <div className="space-y-4">
        <p className={hintClass}>
          <Trans>
            Reminders go to this browser (see Reminders) and to the channels below. A webhook also
            hears when todos and groups are created, changed, completed, deleted or restored; each
            request is signed (Standard Webhooks) with the secret shown when you add it.
          </Trans>
        </p>
        {channels.isPending ? (
          <LoadingText>{t`Loading channels...`}</LoadingText>
        ) : channels.isError ? (
          <ErrorBanner
            message={errorMessage(channels.error, LOAD_CHANNELS_OPERATION)}
            onRetry={() => void channels.refetch()}
          />
        ) : channels.data.length === 0 ? (
          <p className={hintClass}>
            <Trans>No channels yet.</Trans>
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {channels.data.map((channel) => (
              <ChannelRow key={channel.id} channel={channel} onStatus={setStatus} />
            ))}
          </ul>
        )}
        {secret !== null && (
          <div className="space-y-2 rounded-md border border-green-300 bg-green-50 p-3 dark:border-green-800 dark:bg-green-950">
            <p className="text-sm text-slate-800 dark:text-slate-200">
              <Trans>
                The webhook&apos;s signing secret, shown this once: your receiver verifies the
                webhook-signature header with it.
              </Trans>
            </p>
            <code className="block font-mono text-sm break-all">{secret}</code>
            <Button variant="secondary" size="sm" onClick={() => setSecret(null)}>
              <Trans>Done</Trans>
            </Button>
          </div>
        )}
        <AddChannelForm
          onAdded={(channel, signingSecret) => {
            setSecret(signingSecret);
            const kind = kindLabel(channel.kind);
            const { name } = channel;
            setStatus(t`${kind} channel "${name}" added.`);
          }}
        />
        <QuietHoursAndDigest onSaved={setStatus} />
      </div>
      <p
        role="status"
        className="mt-4 text-sm font-medium text-green-800 empty:mt-0 dark:text-green-300"
      >
        {status}
      </p>
    </section>
  );
}

function ChannelRow({
  channel,
  onStatus,
}: {
  channel: Channel;
  onStatus: (status: string) => void;
}) {
  const { t } = useLingui();
  const kindLabel = useKindLabel();
  const test = useTestChannel();
  const update = useUpdateChannel();
  const remove = useRemoveChannel();
  const [result, setResult] = useState<ChannelTestResult | null>(null);
  const [showLog, setShowLog] = useState(false);
  const { name, userKey, topic, tokenHint } = channel;
  const target = channel.url ?? (userKey ? t`user ${userKey}` : '');
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium break-words text-slate-900 dark:text-slate-100">
            {channel.name}{' '}
            <span className="text-sm font-normal text-slate-600 dark:text-slate-400">
              {kindLabel(channel.kind)}
              {channel.enabled ? '' : ` · ${t`off`}`}
            </span>
          </p>
          <p className="text-sm break-all text-slate-600 dark:text-slate-400">
            {target}
            {topic ? ` · ${t`topic ${topic}`}` : ''}
            {tokenHint ? ` · ${t`token ${tokenHint}`}` : ''}
          </p>
          {channel.disabledReason && (
            <p className="text-sm text-red-700 dark:text-red-300">{channel.disabledReason}</p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="compact"
            disabled={test.isPending}
            aria-label={t`Send a test to ${name}`}
            onClick={() => test.mutate(channel.id, { onSuccess: setResult })}
          >
            <Trans>Send a test</Trans>
          </Button>
          {channel.kind === 'webhook' && (
            <Button
              variant="secondary"
              size="compact"
              aria-expanded={showLog}
              onClick={() => setShowLog(!showLog)}
            >
              <Trans>Deliveries</Trans>
            </Button>
          )}
          <Button
            variant="secondary"
            size="compact"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: channel.id, body: { enabled: !channel.enabled } },
                {
                  onSuccess: ({ name: changed, enabled }) =>
                    onStatus(enabled ? t`"${changed}" turned on.` : t`"${changed}" turned off.`),
                },
              )
            }
          >
            {channel.enabled ? t`Turn off` : t`Turn on`}
          </Button>
          <Button
            variant="secondary"
            size="compact"
            disabled={remove.isPending}
            aria-label={t`Remove ${name}`}
            onClick={() =>
              remove.mutate(channel.id, { onSuccess: () => onStatus(t`"${name}" removed.`) })
            }
          >
            <Trans>Remove</Trans>
          </Button>
        </div>
      </div>
      {test.isError && <ErrorBanner message={errorMessage(test.error, msg`Send a test failed`)} />}
      {result && (
        <p
          className={
            result.ok
              ? 'text-sm text-green-800 dark:text-green-300'
              : 'text-sm text-red-700 dark:text-red-300'
          }
        >
          {result.ok ? t`Delivered` : t`Not delivered`}
          {result.status !== null ? ` (HTTP ${result.status})` : ''}
          {result.answer ? `: ${result.answer}` : ''}
        </p>
      )}
      {showLog && <DeliveryLog channelId={channel.id} />}
    </li>
  );
}

function DeliveryLog({ channelId }: { channelId: number }) {
  const { t, i18n } = useLingui();
  const deliveries = useDeliveries(channelId);
  const redeliver = useRedeliver(channelId);
  if (deliveries.isPending) return <LoadingText>{t`Loading deliveries...`}</LoadingText>;
  if (deliveries.isError) {
    return (
      <ErrorBanner
        message={errorMessage(deliveries.error, LOAD_DELIVERIES_OPERATION)}
        onRetry={() => void deliveries.refetch()}
      />
    );
  }
  if (deliveries.data.length === 0) {
    return (
      <p className={hintClass}>
        <Trans>Nothing sent yet.</Trans>
      </p>
    );
  }
  return (
    <table className="w-full text-start text-sm">
      <caption className="sr-only">
        <Trans>Last deliveries</Trans>
      </caption>
      <thead>
        <tr>
          <th scope="col">
            <Trans>Event</Trans>
          </th>
          <th scope="col">
            <Trans>Status</Trans>
          </th>
          <th scope="col">
            <Trans>Time</Trans>
          </th>
          <th scope="col">
            <Trans>Attempt</Trans>
          </th>
          <th scope="col">
            <span className="sr-only">
              <Trans>Actions</Trans>
            </span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deliveries.data.map((delivery) => (
          <tr key={delivery.id}>
            <td>{delivery.event}</td>
            <td>
              {i18n._(DELIVERY_STATES[delivery.state])}
              {delivery.status !== null ? ` (${delivery.status})` : ''}
            </td>
            <td>
              <time dateTime={delivery.lastAttemptAt ?? delivery.createdAt}>
                {when(delivery.lastAttemptAt ?? delivery.createdAt)}
              </time>
            </td>
            <td>{delivery.attempt}</td>
            <td>
              {delivery.state !== 'pending' && (
                <Button
                  variant="link"
                  size="none"
                  disabled={redeliver.isPending}
                  onClick={() => redeliver.mutate(delivery.id)}
                >
                  <Trans>Redeliver</Trans>
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AddChannelForm({
  onAdded,
}: {
  onAdded: (channel: Channel, signingSecret: string | null) => void;
}) {
  const { t, i18n } = useLingui();
  const kindLabel = useKindLabel();
  const create = useCreateChannel();
  const [kind, setKind] = useState<ChannelKind>('ntfy');
  const message = create.isError ? errorMessage(create.error, msg`Add channel failed`) : null;
  const field = message ? fieldOf(create.error) : null;

  const submit = (data: FormData) => {
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    };
    const body: CreateChannelBody = { kind, name: text('name') ?? kindLabel(kind) };
    for (const { name } of FIELDS[kind]) {
      const value = text(name);
      if (value !== undefined) body[name] = value;
    }
    create.mutate(body, {
      onSuccess: (created) => onAdded(created.channel, created.signingSecret),
    });
  };

  return (
    <Form label={t`Add a channel`} onSubmit={submit}>
      <h3 className="text-base font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Add a channel</Trans>
      </h3>
      <SelectField
        label={t`Kind`}
        name="kind"
        value={kind}
        onChange={(event) => {
          setKind(event.currentTarget.value as ChannelKind);
          create.reset();
        }}
      >
        {KINDS.map((option) => (
          <option key={option.value} value={option.value}>
            {kindLabel(option.value)}
          </option>
        ))}
      </SelectField>
      <TextField label={t`Name`} name="name" maxLength={100} placeholder={kindLabel(kind)} />
      {kind === 'email' && (
        <p className={hintClass}>
          <Trans>Reminders go to your account&apos;s verified e-mail address.</Trans>
        </p>
      )}
      {FIELDS[kind].map(({ name, label }) => (
        <TextField
          key={`${kind}-${name}`}
          label={i18n._(label)}
          name={name}
          type={name === 'token' ? 'password' : 'text'}
          autoComplete="off"
          spellCheck={false}
          error={field === name ? message : null}
        />
      ))}
      {message && field === null && <ErrorBanner message={message} />}
      <FormActions>
        <Button type="submit" disabled={create.isPending}>
          <Trans>Add channel</Trans>
        </Button>
      </FormActions>
    </Form>
  );
}
