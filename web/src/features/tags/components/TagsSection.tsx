import { useState } from 'react';
import { plural, msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { GROUP_COLORS, type GroupColor } from '@tally/contract/constants';
import type { Tag } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import { colorName } from '#web/lib/color';
import { useChangeTag, useTags } from '../api/tags';

/** One tag: its count, a colour, a new name (another tag's name merges it) and Delete. */
function TagRow({ tag }: { tag: Tag }) {
  const { update, remove } = useChangeTag();
  const [name, setName] = useState(tag.name);
  const valid = /^[^\s,]{1,30}$/.test(name);
  const { t } = useLingui();
  const tagName = tag.name;
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <span
        aria-hidden="true"
        className="h-4 w-4 rounded-full border border-slate-400"
        style={tag.color ? { backgroundColor: tag.color } : undefined}
      />
      <form
        aria-label={t`Tag ${tagName}`}
        className="flex flex-1 flex-wrap items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (valid && name !== tag.name) update.mutate({ name: tag.name, body: { name } });
        }}
      >
        <input
          aria-label={t`Name of tag ${tagName}`}
          value={name}
          onChange={(event) => setName(event.target.value)}
          className="w-40 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        />
        <Button type="submit" size="sm" variant="outline" disabled={!valid || name === tag.name}>
          <Trans>Rename</Trans>
        </Button>
        <span className="text-sm text-slate-700 dark:text-slate-300">
          {plural(tag.count, { one: '# open todo', other: '# open todos' })}
        </span>
      </form>
      <select
        aria-label={t`Colour of tag ${tagName}`}
        value={tag.color ?? ''}
        onChange={(event) =>
          update.mutate({
            name: tag.name,
            body: {
              color: event.target.value === '' ? null : (event.target.value as GroupColor),
            },
          })
        }
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        <option value="">{t`No colour`}</option>
        {GROUP_COLORS.map((color) => (
          <option key={color} value={color}>
            {colorName(color)}
          </option>
        ))}
      </select>
      <Button
        size="sm"
        variant="ghostDanger"
        aria-label={t`Delete tag ${tagName}`}
        onClick={() => {
          if (window.confirm(t`Delete the tag "${tagName}"? It leaves every todo.`)) {
            remove.mutate(tag.name);
          }
        }}
      >
        <Trans>Delete</Trans>
      </Button>
    </li>
  );
}

/**
 * Tags (docs/product.md, Tags): every tag with its open todos; rename (into an existing name:
 * merge), recolour, delete. Shown on the Groups screen, below the groups.
 */
export function TagsSection() {
  const tags = useTags();
  const { t } = useLingui();
  return (
    <section aria-labelledby="tags-heading" className="mx-auto w-full max-w-3xl px-4 pb-8">
      <h2 id="tags-heading" className="text-xl font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Tags</Trans>
      </h2>
      {tags.isPending ? (
        <LoadingText>{t`Loading tags...`}</LoadingText>
      ) : tags.isError ? (
        <ErrorBanner
          message={errorMessage(tags.error, msg`Load tags failed`)}
          onRetry={() => void tags.refetch()}
        />
      ) : tags.data.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          <Trans>No tags yet: write @tag in a new todo's title.</Trans>
        </p>
      ) : (
        <ul
          aria-label={t`Your tags`}
          className="mt-2 divide-y divide-slate-200 dark:divide-slate-700"
        >
          {tags.data.map((tag) => (
            <TagRow key={`${tag.name}:${tag.color ?? ''}:${tag.count}`} tag={tag} />
          ))}
        </ul>
      )}
    </section>
  );
}
