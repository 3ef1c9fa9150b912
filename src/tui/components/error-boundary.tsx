/**
 * A render error becomes one readable line and a clean exit, instead of
 * Ink's overview of (minified) bundle code. Details go to the log.
 */
import { Text } from 'ink';
import { Component, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  onError(error: Error): void;
}

export class ErrorBoundary extends Component<Props, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error): { error: Error } {
    return { error };
  }

  override componentDidCatch(error: Error): void {
    this.props.onError(error);
  }

  override render(): ReactNode {
    if (this.state.error) return <Text color="red">moat hit an internal error: {this.state.error.message}</Text>;
    return this.props.children;
  }
}
