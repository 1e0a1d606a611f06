import { createContext, useContext } from 'react';
import type { RuntimeConfig } from '@productgen/mf-shared';

export const ShellConfigContext = createContext<RuntimeConfig | null>(null);

export function useShellConfig(): RuntimeConfig {
  const config = useContext(ShellConfigContext);
  if (!config) throw new Error('The shell chrome must be rendered inside <ShellConfigContext.Provider>');
  return config;
}
