import { useLingui } from '@lingui/react/macro';
import { StatisticsPage } from '#web/features/statistics/components/StatisticsPage';
import { useDocumentTitle } from '../use-document-title';

/** Loaded lazily (see router.tsx): its code is fetched only when /statistics opens. */
export default function StatisticsRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Statistics`);
  return <StatisticsPage />;
}
