import { Trans } from '@lingui/react/macro';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from './Button';

interface ErrorBoundaryProps {
  children: ReactNode;
}

interface ErrorBoundaryState {
  failed: boolean;
}

/**
 * Catches a screen that fails to render (or whose lazy code fails to load after a new
 * deployment) and offers a reload instead of a blank page. Give it a key per route to reset it.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Screen failed to render', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="mx-auto max-w-md px-4 py-16 text-center">
        <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">
          <Trans>Something went wrong</Trans>
        </h1>
        <p className="mt-3 text-slate-700 dark:text-slate-300">
          <Trans>This screen could not be shown. Reloading usually helps.</Trans>
        </p>
        <Button onClick={() => window.location.reload()} className="mt-6">
          <Trans>Reload</Trans>
        </Button>
      </div>
    );
  }
}
