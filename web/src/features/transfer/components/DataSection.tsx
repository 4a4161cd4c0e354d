import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Button } from '#web/components/Button';
import { useExportAccount } from '../api/export-account';
import { useExportTodosCsv } from '../api/export-todos-csv';
import { Hint, SettingsSection } from '#web/components/SettingsSection';

/** Export my data: everything of the account as a JSON file; the todos as CSV. */
export function DataSection() {
  const { t } = useLingui();
  const exportAccount = useExportAccount();
  const exportCsv = useExportTodosCsv();
  const [status, setStatus] = useState<string | null>(null);

  const download = () => {
    setStatus(null);
    exportAccount.mutate(undefined, {
      onSuccess: (fileName) => setStatus(t`Your data is saved as ${fileName}.`),
    });
  };

  const downloadCsv = () => {
    setStatus(null);
    exportCsv.mutate(undefined, {
      onSuccess: (fileName) => setStatus(t`Your todos are saved as ${fileName}.`),
    });
  };

  return (
    <SettingsSection title={t`Your data`} status={status}>
      <Hint>
        <Trans>
          Download everything Tally keeps about your account (your todos, groups and statistics) as
          a JSON file, to keep or to take elsewhere; or your todos as a CSV file for a spreadsheet.
        </Trans>
      </Hint>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={download} disabled={exportAccount.isPending}>
          {exportAccount.isPending ? t`Exporting...` : t`Export my data`}
        </Button>
        <Button variant="secondary" onClick={downloadCsv} disabled={exportCsv.isPending}>
          {exportCsv.isPending ? t`Exporting CSV...` : t`Export todos as CSV`}
        </Button>
      </div>
    </SettingsSection>
  );
}
