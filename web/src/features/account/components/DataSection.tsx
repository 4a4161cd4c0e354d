import { useState } from 'react';
import { Button } from '#web/components/Button';
import { useExportAccount } from '../api/export-account';
import { Hint, SettingsSection } from './SettingsSection';

/** Export my data: everything of the account as a JSON file. */
export function DataSection() {
  const exportAccount = useExportAccount();
  const [status, setStatus] = useState<string | null>(null);

  const download = () => {
    setStatus(null);
    exportAccount.mutate(undefined, {
      onSuccess: (fileName) => setStatus(`Your data is saved as ${fileName}.`),
    });
  };

  return (
    <SettingsSection title="Your data" status={status}>
      <Hint>
        Download everything Tally keeps about your account (your todos, groups and statistics) as a
        JSON file, to keep or to take elsewhere.
      </Hint>
      <div>
        <Button variant="secondary" onClick={download} disabled={exportAccount.isPending}>
          {exportAccount.isPending ? 'Exporting...' : 'Export my data'}
        </Button>
      </div>
    </SettingsSection>
  );
}
