import { Alert } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertIcon } from './icons';

interface ErrorBoundaryProps {
  readonly children: ReactNode;
  /** Render nothing on failure (for decorations whose absence is harmless); the failure is still reported. */
  readonly invisible?: boolean;
}

interface ErrorBoundaryState {
  readonly failed: boolean;
}

/** Keeps a screen that fails to render from taking the whole app down: the shell stays, the content says so. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('A screen failed to render', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    if (this.props.invisible) return null;
    return (
      <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title="Something went wrong" role="alert">
        Something went wrong and we could not correctly display this content
      </Alert>
    );
  }
}
