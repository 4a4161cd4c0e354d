import { Trans, useLingui } from '@lingui/react/macro';
import { CSV_MAPPING_FIELDS, type CsvMappingField } from '@tally/contract/constants';
import type { ImportColumn } from '@tally/contract';
import { Fieldset, SelectField } from '#web/components/FormField';
import { FIELD_LABELS } from '../lib/import-history-text';

type Mapping = Partial<Record<CsvMappingField, string>>;

/**
 * Any CSV: each column of the file with the field it became; choosing another field for a
 * column previews the file again with that mapping (a field comes from one column only).
 */
export default function ColumnStep({
  columns,
  disabled,
  onChange,
}: {
  columns: ImportColumn[];
  disabled: boolean;
  onChange: (mapping: Mapping) => void;
}) {
  const { t, i18n } = useLingui();
  const choose = (column: string, field: CsvMappingField | null) => {
    const mapping: Mapping = {};
    for (const entry of columns) {
      if (entry.column === column || entry.field === null || entry.field === field) continue;
      mapping[entry.field] = entry.column;
    }
    if (field !== null) mapping[field] = column;
    onChange(mapping);
  };
  return (
    <Fieldset legend={t`Columns`}>
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        <Trans>
          Which field each column of the file becomes. A column left as &quot;Not imported&quot; is
          left out.
        </Trans>
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        {columns.map((entry, index) => {
          const number = index + 1;
          return (
            <SelectField
              key={index}
              label={entry.column || t`Column ${number}`}
              name={`column-${index}`}
              value={entry.field ?? ''}
              disabled={disabled}
              onChange={(event) =>
                choose(entry.column, (event.target.value || null) as CsvMappingField | null)
              }
            >
              <option value="">{t`Not imported`}</option>
              {CSV_MAPPING_FIELDS.map((field) => (
                <option key={field} value={field}>
                  {i18n._(FIELD_LABELS[field])}
                </option>
              ))}
            </SelectField>
          );
        })}
      </div>
    </Fieldset>
  );
}
