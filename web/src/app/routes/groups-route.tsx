import { useLingui } from '@lingui/react/macro';
import { GroupsPage } from '#web/features/groups/components/GroupsPage';
import { TagsSection } from '#web/features/tags/components/TagsSection';
import { useDocumentTitle } from '../use-document-title';

/** Groups, and below them the tags: the two ways todos are sorted into sets. */
export default function GroupsRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Groups`);
  return (
    <>
      <GroupsPage />
      <TagsSection />
    </>
  );
}
