import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import type { ApiToken, CreatedApiToken, TokenScope } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ConfirmDialog } from '#web/components/ConfirmDialog';
import { Form, FormActions } from '#web/components/Form';
import { SelectField, TextField } from '#web/components/FormField';
import { cn } from '#web/lib/cn';
import { useCreateToken } from '../api/create-token';
import { LOAD_TOKENS_OPERATION, useTokens } from '../api/get-tokens';
import { useRevokeToken } from '../api/revoke-token';
import { copyResult } from '#web/lib/copy-text';
import { formatInstant } from '#web/lib/format-instant';
import { CopyField } from '#web/components/CopyField';
import {
  Hint,
  SettingsList,
  SettingsSection,
  SubHeading,
  When,
} from '#web/components/SettingsSection';

/** contract/src/tokens.ts: TOKEN_NAME_MAX (a type import keeps the schemas out of the bundle). */
const NAME_MAX = 100;
/** contract/src/tokens.ts: TOKEN_EXPIRY_DAYS, and never. */
const EXPIRIES = [
  { value: '30', label: msg`30 days` },
  { value: '90', label: msg`90 days` },
  { value: '365', label: msg`1 year` },
  { value: 'never', label: msg`Never` },
] as const;
const SCOPES: { value: TokenScope; label: MessageDescriptor }[] = [
  { value: 'read', label: msg`Read only` },
  { value: 'read-write', label: msg`Read and write` },
];
const scopeLabel = (scope: TokenScope) => SCOPES.find((s) => s.value === scope)?.label;

const linkClass = 'font-medium text-blue-700 underline underline-offset-2 dark:text-blue-300';

function TokenRow({
  token,
  now,
  onRevoke,
}: {
  token: ApiToken;
  /** When the screen opened (epoch ms): an expiry before it shows as expired. */
  now: number;
  onRevoke: (token: ApiToken) => void;
}) {
  const { t, i18n } = useLingui();
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
  const scope = scopeLabel(token.scope);
  const { name } = token;
  const expiredAt = formatInstant(token.expiresAt ?? '');
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900 dark:text-slate-100">
          <span className="min-w-0 break-words">{token.name}</span>
          <span
            className={cn(
              'rounded-full px-2 py-0.5 text-xs font-semibold',
              token.scope === 'read'
                ? 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200'
                : 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
            )}
          >
            {scope ? i18n._(scope) : token.scope}
          </span>
        </p>
        <p className="mt-0.5 flex flex-wrap gap-x-3 text-sm text-slate-600 dark:text-slate-400">
          <When label={t`Created`} instant={token.createdAt} />
          <When label={t`Last used`} instant={token.lastUsedAt} />
          {expired ? (
            <span className="font-medium text-red-700 dark:text-red-300">
              <Trans>
                Expired <time dateTime={token.expiresAt ?? ''}>{expiredAt}</time>
              </Trans>
            </span>
          ) : (
            <When label={t`Expires`} instant={token.expiresAt} />
          )}
        </p>
      </div>
      <Button
        variant="secondary"
        size="compact"
        onClick={() => onRevoke(token)}
        aria-label={t`Revoke token ${name}`}
      >
        <Trans>Revoke</Trans>
      </Button>
    </li>
  );
}

/** The token just made, shown this once with a copy button. */
function NewToken({
  token,
  onCopy,
  onDone,
}: {
  token: CreatedApiToken;
  onCopy: (copied: boolean) => void;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const headingId = useId();
  const { name } = token;
  const start = token.token.slice(0, 14);
  return (
    <div
      role="group"
      aria-labelledby={headingId}
      className="space-y-3 rounded-md border border-green-300 bg-green-50 p-3 sm:p-4 dark:border-green-800 dark:bg-green-950"
    >
      <h3 id={headingId} className="font-semibold break-words text-slate-900 dark:text-slate-100">
        <Trans>New token: {name}</Trans>
      </h3>
      <p className="text-sm text-slate-800 dark:text-slate-200">
        <Trans>
          Copy it now and keep it safe: Tally keeps only a fingerprint of it and cannot show it
          again.
        </Trans>
      </p>
      <CopyField
        label={t`Token`}
        value={token.token}
        copyLabel={t`Copy token`}
        onCopy={onCopy}
        focusOnMount
      />
      <p className="text-sm text-slate-800 dark:text-slate-200">
        <Trans>
          Send it with each request as{' '}
          <code className="font-mono break-all">Authorization: Bearer {start}…</code>
        </Trans>
      </p>
      <Button variant="secondary" size="sm" onClick={onDone}>
        <Trans>Done</Trans>
      </Button>
    </div>
  );
}

/** Personal API tokens: make one (shown once), list them, revoke one. */
export function ApiTokensSection() {
  const { t, i18n } = useLingui();
  const tokens = useTokens();
  const createToken = useCreateToken();
  const revokeToken = useRevokeToken();
  const [status, setStatus] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [now] = useState(() => Date.now());

  const submit = (data: FormData) => {
    setStatus(null);
    const expiry = String(data.get('expiresInDays') ?? 'never');
    createToken.mutate(
      {
        name: String(data.get('name') ?? '').trim(),
        scope: data.get('scope') === 'read-write' ? 'read-write' : 'read',
        expiresInDays: expiry === 'never' ? null : (Number(expiry) as 30 | 90 | 365),
      },
      {
        onSuccess: (token) => {
          formRef.current?.reset();
          setCreated(token);
          const { name } = token;
          setStatus(t`Token ${name} is made. Copy it now: it is shown only once.`);
        },
      },
    );
  };

  const done = () => {
    setCreated(null);
    setStatus(null);
    formRef.current?.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
  };

  const revoke = (token: ApiToken) => {
    setStatus(null);
    revokeToken.mutate(token.id, {
      onSuccess: () => {
        setRevoking(null);
        if (created?.id === token.id) setCreated(null);
        const { name } = token;
        setStatus(t`Token ${name} is revoked: it no longer works.`);
      },
    });
  };

  const revokingName = revoking?.name;
  return (
    <SettingsSection id="api-tokens" title={t`API tokens`} status={status}>
      <Hint>
        <Trans>
          A personal API token lets a script or another app use{' '}
          <a href="/api/docs" className={linkClass}>
            Tally&apos;s API
          </a>{' '}
          as you. A read-only token can look but not change anything. No token can change your
          account or sign in.
        </Trans>
      </Hint>
      {created && (
        <NewToken
          token={created}
          onCopy={(copied) => setStatus(copyResult(copied, 'token'))}
          onDone={done}
        />
      )}
      <SubHeading>
        <Trans>New token</Trans>
      </SubHeading>
      <Form label={t`New API token`} onSubmit={submit} ref={formRef}>
        <TextField
          label={t`Name`}
          name="name"
          maxLength={NAME_MAX}
          required
          autoComplete="off"
          placeholder={t`e.g. Backup script`}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label={t`Access`} name="scope" defaultValue="read">
            {SCOPES.map((scope) => (
              <option key={scope.value} value={scope.value}>
                {i18n._(scope.label)}
              </option>
            ))}
          </SelectField>
          <SelectField label={t`Expires after`} name="expiresInDays" defaultValue="90">
            {EXPIRIES.map((expiry) => (
              <option key={expiry.value} value={expiry.value}>
                {i18n._(expiry.label)}
              </option>
            ))}
          </SelectField>
        </div>
        <FormActions>
          <Button type="submit" disabled={createToken.isPending}>
            {createToken.isPending ? t`Creating token...` : t`Create token`}
          </Button>
        </FormActions>
      </Form>
      <SubHeading>
        <Trans>Your tokens</Trans>
      </SubHeading>
      <SettingsList
        query={tokens}
        label={t`API tokens`}
        loading={t`Loading API tokens...`}
        loadOperation={LOAD_TOKENS_OPERATION}
        empty={<Trans>You have no API tokens.</Trans>}
      >
        {(token) => <TokenRow key={token.id} token={token} now={now} onRevoke={setRevoking} />}
      </SettingsList>
      <ConfirmDialog
        open={revoking !== null}
        title={t`Revoke API token`}
        confirmLabel={t`Revoke`}
        pending={revokeToken.isPending}
        onConfirm={() => revoking && revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p>
          <Trans>
            Revoke &quot;{revokingName}&quot;? Anything that uses it stops working at once.
          </Trans>
        </p>
      </ConfirmDialog>
    </SettingsSection>
  );
}
