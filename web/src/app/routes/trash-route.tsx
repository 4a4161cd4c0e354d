import { useLingui } from '@lingui/react/macro';
import { Markdown } from '#web/features/todos/components/Markdown';
import { TrashPage } from '#web/features/trash/components/TrashPage';
import { useDocumentTitle } from '../use-document-title';

const renderDescription = (description: string) => <Markdown source={description} />;

export default function TrashRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Trash`);
  return <TrashPage renderDescription={renderDescription} />;
}
