import { useLingui } from '@lingui/react/macro';
import { Button } from '#web/components/Button';

interface OidcSignInButtonProps {
  /** OIDC_NAME, from GET /api/config. */
  name: string;
  onClick: () => void;
  pending: boolean;
}

/** "Continue with {OIDC_NAME}": the whole width of the card, like Google's button. */
export function OidcSignInButton({ name, onClick, pending }: OidcSignInButtonProps) {
  const { t } = useLingui();
  return (
    <Button variant="secondary" className="w-full" onClick={onClick} disabled={pending}>
      {pending ? t`Opening ${name}...` : t`Continue with ${name}`}
    </Button>
  );
}
