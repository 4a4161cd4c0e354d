import { Button } from '#web/components/Button';

interface OidcSignInButtonProps {
  /** OIDC_NAME, from GET /api/config. */
  name: string;
  onClick: () => void;
  pending: boolean;
}

/** "Continue with {OIDC_NAME}": the whole width of the card, like Google's button. */
export function OidcSignInButton({ name, onClick, pending }: OidcSignInButtonProps) {
  return (
    <Button variant="secondary" className="w-full" onClick={onClick} disabled={pending}>
      {pending ? `Opening ${name}...` : `Continue with ${name}`}
    </Button>
  );
}
