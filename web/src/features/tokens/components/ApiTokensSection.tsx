import { useId, useRef, useState } from 'react';
import type { ApiToken, CreatedApiToken, TokenScope } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ConfirmDialog } from '#web/components/ConfirmDialog';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { SelectField, TextField } from '#web/components/FormField';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { cn } from '#web/lib/cn';
import { useCreateToken } from '../api/create-token';
import { LOAD_TOKENS_OPERATION, useTokens } from '../api/get-tokens';
import { useRevokeToken } from '../api/revoke-token';
import { copyResult } from '#web/lib/copy-text';
import { formatInstant } from '#web/lib/format-instant';
import { CopyField } from '#web/components/CopyField';
import { Hint, SettingsSection, SubHeading } from '#web/components/SettingsSection';

/** contract/src/tokens.ts: TOKEN_NAME_MAX (a type import keeps the schemas out of the bundle). */
const NAME_MAX = 100;
/** contract/src/tokens.ts: TOKEN_EXPIRY_DAYS, and never. */
const EXPIRIES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
] as const;
const SCOPES: { value: TokenScope; label: string }[] = [
  { value: 'read', label: 'Read only' },
  { value: 'read-write', label: 'Read and write' },
];
const scopeLabel = (scope: TokenScope) => SCOPES.find((s) => s.value === scope)?.label ?? scope;

const linkClass = 'font-medium text-blue-700 underline underline-offset-2 dark:text-blue-300';

function When({ label, instant }: { label: string; instant: string | null }) {
  return (
    <span>
      {label}{' '}
      {instant ? <time dateTime={instant}>{formatInstant(instant)}</time> : <span>never</span>}
    </span>
  );
}

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
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
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
            {scopeLabel(token.scope)}
          </span>
        </p>
        <p className="mt-0.5 flex flex-wrap gap-x-3 text-sm text-slate-600 dark:text-slate-400">
          <When label="Created" instant={token.createdAt} />
          <When label="Last used" instant={token.lastUsedAt} />
          {expired ? (
            <span className="font-medium text-red-700 dark:text-red-300">
              Expired{' '}
              <time dateTime={token.expiresAt ?? ''}>{formatInstant(token.expiresAt ?? '')}</time>
            </span>
          ) : (
            <When label="Expires" instant={token.expiresAt} />
          )}
        </p>
      </div>
      <Button
        variant="secondary"
        size="compact"
        onClick={() => onRevoke(token)}
        aria-label={`Revoke token ${token.name}`}
      >
        Revoke
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
  const headingId = useId();
  return (
    <div
      role="group"
      aria-labelledby={headingId}
      className="space-y-3 rounded-md border border-green-300 bg-green-50 p-3 sm:p-4 dark:border-green-800 dark:bg-green-950"
    >
      <h3 id={headingId} className="font-semibold break-words text-slate-900 dark:text-slate-100">
        New token: {token.name}
      </h3>
      <p className="text-sm text-slate-800 dark:text-slate-200">
        Copy it now and keep it safe: Tally keeps only a fingerprint of it and cannot show it again.
      </p>
      <CopyField
        label="Token"
        value={token.token}
        copyLabel="Copy token"
        onCopy={onCopy}
        focusOnMount
      />
      <p className="text-sm text-slate-800 dark:text-slate-200">
        Send it with each request as{' '}
        <code className="font-mono break-all">
          Authorization: Bearer {token.token.slice(0, 14)}…
        </code>
      </p>
      <Button variant="secondary" size="sm" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

/** Personal API tokens: make one (shown once), list them, revoke one. */
export function ApiTokensSection() {
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
          setStatus(`Token ${token.name} is made. Copy it now: it is shown only once.`);
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
        setStatus(`Token ${token.name} is revoked: it no longer works.`);
      },
    });
  };

  return (
    <SettingsSection id="api-tokens" title="API tokens" status={status}>
      <Hint>
        A personal API token lets a script or another app use{' '}
        <a href="/api/docs" className={linkClass}>
          Tally&apos;s API
        </a>{' '}
        as you. A read-only token can look but not change anything. No token can change your account
        or sign in.
      </Hint>
      {created && (
        <NewToken
          token={created}
          onCopy={(copied) => setStatus(copyResult(copied, 'Token'))}
          onDone={done}
        />
      )}
      <SubHeading>New token</SubHeading>
      <Form label="New API token" onSubmit={submit} ref={formRef}>
        <TextField
          label="Name"
          name="name"
          maxLength={NAME_MAX}
          required
          autoComplete="off"
          placeholder="e.g. Backup script"
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label="Access" name="scope" defaultValue="read">
            {SCOPES.map((scope) => (
              <option key={scope.value} value={scope.value}>
                {scope.label}
              </option>
            ))}
          </SelectField>
          <SelectField label="Expires after" name="expiresInDays" defaultValue="90">
            {EXPIRIES.map((expiry) => (
              <option key={expiry.value} value={expiry.value}>
                {expiry.label}
              </option>
            ))}
          </SelectField>
        </div>
        <FormActions>
          <Button type="submit" disabled={createToken.isPending}>
            {createToken.isPending ? 'Creating token...' : 'Create token'}
          </Button>
        </FormActions>
      </Form>
      <SubHeading>Your tokens</SubHeading>
      {tokens.isPending ? (
        <LoadingText>Loading API tokens...</LoadingText>
      ) : tokens.isError ? (
        <ErrorBanner
          message={errorMessage(tokens.error, LOAD_TOKENS_OPERATION)}
          onRetry={() => void tokens.refetch()}
        />
      ) : tokens.data.length === 0 ? (
        <Hint>You have no API tokens.</Hint>
      ) : (
        <ul
          aria-label="API tokens"
          className="divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-700 dark:border-slate-700"
        >
          {tokens.data.map((token) => (
            <TokenRow key={token.id} token={token} now={now} onRevoke={setRevoking} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke API token"
        confirmLabel="Revoke"
        pending={revokeToken.isPending}
        onConfirm={() => revoking && revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p>Revoke &quot;{revoking?.name}&quot;? Anything that uses it stops working at once.</p>
      </ConfirmDialog>
    </SettingsSection>
  );
}
