import type { ReactNode } from 'react';
import { PlatformProvider } from '@productgen/platform-client';
import type { RuntimeConfig } from '@productgen/mf-shared';
import { ShellConfigContext } from './shell-config';
import { SignInProvider } from './SignInProvider';

/** The providers every piece of the shell's always-mounted chrome renders inside. */
export function ChromeProviders({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  return (
    <ShellConfigContext.Provider value={config}>
      <PlatformProvider>{children}</PlatformProvider>
    </ShellConfigContext.Provider>
  );
}

export function ChromeWithSignIn({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  return (
    <ChromeProviders config={config}>
      <SignInProvider>{children}</SignInProvider>
    </ChromeProviders>
  );
}
