import { useEffect, useRef, useState } from 'react';
import { SHARE_PATH } from '@tally/contract/constants';
import { copyResult } from '#web/lib/copy-text';
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
  // React refuses javascript: addresses in href, the whole point of a bookmarklet: set here.
  useEffect(() => {
    linkRef.current?.setAttribute('href', code);
  }, [code]);

  return (
    <SettingsSection title="Share and bookmarklet" status={status}>
      <Hint>
        On a phone with Tally installed (Add to Home screen), share a page or some text and pick
        Tally: the Add Todo form opens filled in. On a computer, drag this button to the bookmarks
        bar; clicking the bookmark on any page opens the Add Todo form with the page&apos;s title,
        its address and the text you selected.
      </Hint>
      <p>
        <a
          ref={linkRef}
          className={linkClass}
          onClick={(event) => {
            // Clicked here rather than bookmarked: nothing to add from Settings itself.
            event.preventDefault();
            setStatus('Drag the button to your bookmarks bar, or copy the code below.');
          }}
        >
          Add to Tally
        </a>
      </p>
      <CopyField
        label="Bookmarklet code (paste it as a bookmark's address)"
        value={code}
        copyLabel="Copy code"
        onCopy={(copied) => setStatus(copyResult(copied, 'Code'))}
      />
    </SettingsSection>
  );
}
