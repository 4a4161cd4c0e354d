import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { SHARE_PATH } from '@tally/contract/constants';
import { CopyField } from '#web/components/CopyField';
import { Hint, SettingsSection } from '#web/components/SettingsSection';

/**
 * The bookmarklet: a bookmark whose address is a script that opens this server's /share with the
 * page's title, address and selected text, in a new tab, as the phone's share sheet does.
 */
function bookmarkletOf(origin: string): string {
  const share = `${origin}${SHARE_PATH}`;
  return (
    'javascript:(()=>{const q=new URLSearchParams({title:document.title,url:location.href,' +
    `text:String(getSelection())});window.open('${share}?'+q,'_blank','noopener')})()`
  );
}

const linkClass =
  'inline-flex min-h-10 items-center rounded-md border border-blue-700 px-3 py-2 text-sm ' +
  'font-semibold text-blue-800 dark:border-blue-300 dark:text-blue-200';

/**
 * Share and bookmarklet (docs/product.md): on a phone, the installed app is in the share sheet;
 * on a computer, a bookmark sends any page to the Add Todo form.
 */
export function BookmarkletSection() {
  const [status, setStatus] = useState<string | null>(null);
  const code = bookmarkletOf(window.location.origin);
  const linkRef = useRef<HTMLAnchorElement>(null);
  const { t } = useLingui();
  // React refuses javascript: addresses in href, the whole point of a bookmarklet: set here.
  useEffect(() => {
    linkRef.current?.setAttribute('href', code);
  }, [code]);

  return (
    <SettingsSection title={t`Share and bookmarklet`} status={status}>
      <Hint>
        <Trans>
          On a phone with Tally installed (Add to Home screen), share a page or some text and pick
          Tally: the Add Todo form opens filled in. On a computer, drag this button to the bookmarks
          bar; clicking the bookmark on any page opens the Add Todo form with the page&apos;s title,
          its address and the text you selected.
        </Trans>
      </Hint>
      <p>
        <a
          ref={linkRef}
          className={linkClass}
          onClick={(event) => {
            // Clicked here rather than bookmarked: nothing to add from Settings itself.
            event.preventDefault();
            setStatus(t`Drag the button to your bookmarks bar, or copy the code below.`);
          }}
        >
          <Trans>Add to Tally</Trans>
        </a>
      </p>
      <CopyField
        label={t`Bookmarklet code (paste it as a bookmark's address)`}
        value={code}
        copyLabel={t`Copy code`}
        onCopy={(copied) =>
          setStatus(
            copied
              ? t`Code copied to the clipboard.`
              : t`Could not copy: the code is selected, press Ctrl+C (⌘C on a Mac) to copy it.`,
          )
        }
      />
    </SettingsSection>
  );
}
