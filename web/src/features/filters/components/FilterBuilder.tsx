import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import type { Group, SavedFilter, SavedFilterBody } from '@tally/contract';
import { DEFAULT_GROUP_COLOR, GROUP_COLORS, LIMITS } from '@tally/contract/constants';
import { FILTER_QUERY_MAX } from '@tally/contract/filter-query';
import { Button } from '#web/components/Button';
import { Form, FormActions } from '#web/components/Form';
import { SelectField, TextField } from '#web/components/FormField';
import { fieldErrorOf } from '#web/lib/api-client';
import { colorName } from '#web/lib/color';
import { useSaveFilter } from '../api/save-filter';
import { DATE_RANGES, queryOfChips, readQuery, type FilterChips } from '../lib/run-filter';

interface FilterBuilderProps {
  groups: readonly Group[];
  /** The filter being changed; null for a new one. */
  editing: SavedFilter | null;
  onSaved: (saved: SavedFilter) => void;
  onCancel: () => void;
}

/** The date words of a query (which stay English in it), as the Dates select names them. */
const DATE_LABELS: Record<(typeof DATE_RANGES)[number], MessageDescriptor> = {
  today: msg`Today`,
  overdue: msg`Overdue`,
  'next 7 days': msg`Next 7 days`,
  'no date': msg`No date`,
  recurring: msg`Recurring`,
};

const NO_CHIPS: FilterChips = { groupName: '', tag: '', priority: '', dates: '', text: '' };

/**
 * A saved filter's name, colour and query: the chips (group, tag, priority, dates, words) write
 * the query, and the field below takes any query typed; a query that cannot be read says why
 * beside the field as it is typed.
 */
export default function FilterBuilder({ groups, editing, onSaved, onCancel }: FilterBuilderProps) {
  const save = useSaveFilter();
  const { t, i18n } = useLingui();
  const [name, setName] = useState(editing?.name ?? '');
  const [color, setColor] = useState<string>(editing?.color ?? DEFAULT_GROUP_COLOR);
  const [chips, setChips] = useState<FilterChips>(NO_CHIPS);
  const [query, setQuery] = useState(editing?.query ?? '');
  const typedError = useMemo(
    () => (query.trim() === '' ? null : readQuery(query, groups).error),
    [query, groups],
  );
  const queryError = typedError ?? fieldErrorOf(save.error, 'query');

  const choose = (change: Partial<FilterChips>) => {
    const next = { ...chips, ...change };
    setChips(next);
    setQuery(queryOfChips(next));
    if (save.isError) save.reset();
  };

  const submit = () => {
    if (typedError || query.trim() === '') return;
    const body: SavedFilterBody = {
      name: name.trim(),
      color: color as SavedFilterBody['color'],
      query: query.trim(),
    };
    save.mutate(editing ? { id: editing.id, body } : { body }, { onSuccess: onSaved });
  };

  return (
    <Form label={editing ? t`Edit filter` : t`New filter`} card onSubmit={submit}>
      <TextField
        label={t`Filter name`}
        id="filter-name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        maxLength={LIMITS.groupNameMax}
        autoComplete="off"
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label={t`Group`}
          id="filter-group"
          value={chips.groupName}
          onChange={(event) => choose({ groupName: event.target.value })}
        >
          <option value="">{t`Any group`}</option>
          {groups.map((group) => (
            <option key={group.id} value={group.name}>
              {group.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t`Tag`}
          id="filter-tag"
          value={chips.tag}
          onChange={(event) => choose({ tag: event.target.value })}
          autoComplete="off"
        />
        <SelectField
          label={t`Priority`}
          id="filter-priority"
          value={chips.priority}
          onChange={(event) => choose({ priority: event.target.value })}
        >
          <option value="">{t`Any priority`}</option>
          <option value="p1">{t`High (p1)`}</option>
          <option value="p2">{t`Medium (p2)`}</option>
          <option value="p3">{t`Low (p3)`}</option>
          <option value="p4">{t`None (p4)`}</option>
        </SelectField>
        <SelectField
          label={t`Dates`}
          id="filter-dates"
          value={chips.dates}
          onChange={(event) => choose({ dates: event.target.value })}
        >
          <option value="">{t`Any date`}</option>
          {DATE_RANGES.map((range) => (
            <option key={range} value={range}>
              {i18n._(DATE_LABELS[range])}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t`Words`}
          id="filter-text"
          value={chips.text}
          onChange={(event) => choose({ text: event.target.value })}
          autoComplete="off"
        />
        <SelectField
          label={t`Colour`}
          id="filter-color"
          value={color}
          onChange={(event) => setColor(event.target.value)}
        >
          {GROUP_COLORS.map((swatch) => (
            <option key={swatch} value={swatch}>
              {colorName(swatch)}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        label={t`Query`}
        id="filter-query"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          if (save.isError) save.reset();
        }}
        error={queryError}
        required
        maxLength={FILTER_QUERY_MAX}
        autoComplete="off"
        spellCheck={false}
        placeholder={t({
          comment:
            'A saved filter reads its words (today, overdue) and operators in English only: keep them.',
          message: '#Work & (today | overdue)',
        })}
      />
      <FormActions>
        <Button type="submit" disabled={save.isPending || typedError !== null}>
          <Trans>Save filter</Trans>
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </FormActions>
    </Form>
  );
}
