import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { TokenScope } from '@tally/contract';
import { MCP_PATH } from '@tally/contract/constants';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { errorMessage } from '#web/lib/api-client';
import { useCreateToken } from '../api/create-token';
import { copyResult, copyText } from '#web/lib/copy-text';
import { Hint, SettingsSection } from '#web/components/SettingsSection';

const linkClass = 'font-medium text-blue-700 underline underline-offset-2 dark:text-blue-300';

/**
 * The JSON a desktop assistant takes (Claude, Cursor, VS Code and others read `mcpServers`):
 * this server's /mcp, the token, and the browser's time zone, so "today" is the user's today.
 */
function assistantConfig(origin: string, token: string, timeZone: string): string {
  return JSON.stringify(
    {
      mcpServers: {
        tally: {
          type: 'http',
          url: `${origin}${MCP_PATH}`,
          headers: { Authorization: `Bearer ${token}`, 'X-Time-Zone': timeZone },
        },
      },
    },
    null,
    2,
  );
}

/**
 * AI assistants (docs/product.md): how to connect one over MCP. The JSON to paste, with a token
 * placeholder or a token made here for the purpose (shown this once, like any new token).
 */
export function AssistantsSection() {
  const { t } = useLingui();
  const [status, setStatus] = useState<string | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const [scope, setScope] = useState<TokenScope>('read-write');
  const createToken = useCreateToken();
  const configId = useId();
  const scopeId = useId();
  const configRef = useRef<HTMLTextAreaElement>(null);
  const config = assistantConfig(
    window.location.origin,
    // Where the token goes in the JSON until one is made here.
    token ?? t`tally_pat_…your API token…`,
    Intl.DateTimeFormat().resolvedOptions().timeZone,
  );

  const copy = async () => {
    const copied = await copyText(config);
    if (!copied) {
      configRef.current?.focus();
      configRef.current?.select();
    }
    setStatus(copyResult(copied, 'configuration'));
  };

  const makeToken = () => {
    setStatus(null);
    createToken.mutate(
      {
        name: scope === 'read' ? t`AI assistant (read only)` : t`AI assistant`,
        scope,
        expiresInDays: 365,
      },
      {
        onSuccess: (created) => {
          setToken(created.token);
          setStatus(t`Token made and put in the configuration: copy it now, it is shown once.`);
        },
      },
    );
  };

  return (
    <SettingsSection title={t`AI assistants (MCP)`} status={status}>
      <Hint>
        <Trans>
          Assistants that speak the Model Context Protocol (Claude, ChatGPT, Cursor, VS Code and
          others) can find, add, complete, reschedule and delete your todos, and read your Insights.
          Add this to the assistant&apos;s MCP configuration, with an{' '}
          <Link href="/settings/api-tokens" className={linkClass}>
            API token
          </Link>{' '}
          in place of the placeholder, or make one here. A Read only token lets the assistant look
          but not change anything; each use shows as the token&apos;s Last used, and revoking the
          token disconnects the assistant.
        </Trans>
      </Hint>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div>
          <label
            htmlFor={scopeId}
            className="block text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            <Trans>Token for the assistant</Trans>
          </label>
          <select
            id={scopeId}
            value={scope}
            onChange={(event) => setScope(event.target.value as TokenScope)}
            className="mt-1 block min-h-10 rounded-md border border-slate-500 bg-white px-3 py-2 text-sm text-slate-900 dark:bg-slate-950 dark:text-slate-100"
          >
            <option value="read-write">{t`Read and write`}</option>
            <option value="read">{t`Read only`}</option>
          </select>
        </div>
        <Button
          variant="secondary"
          className="shrink-0"
          disabled={createToken.isPending}
          onClick={makeToken}
        >
          {createToken.isPending ? t`Making token...` : t`Make a token for an assistant`}
        </Button>
      </div>
      {createToken.isError && (
        <ErrorBanner message={errorMessage(createToken.error, msg`Create API token failed`)} />
      )}
      <div>
        <label
          htmlFor={configId}
          className="block text-sm font-medium text-slate-800 dark:text-slate-200"
        >
          <Trans>MCP configuration</Trans>
        </label>
        <textarea
          id={configId}
          ref={configRef}
          readOnly
          rows={config.split('\n').length}
          value={config}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className={
            'mt-1 block w-full min-w-0 rounded-md border border-slate-500 bg-slate-50 px-3 py-2 ' +
            'font-mono text-sm text-slate-900 dark:bg-slate-950 dark:text-slate-100'
          }
        />
        <Button variant="secondary" className="mt-2" onClick={() => void copy()}>
          <Trans>Copy configuration</Trans>
        </Button>
      </div>
    </SettingsSection>
  );
}
