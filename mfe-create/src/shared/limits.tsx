import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { clientLimits } from '@productgen/contracts/limits';
import { usePlatformClient, type ClientConfig } from '@productgen/platform-client';

/** The limits the create tabs apply, as GET /configlist serves them (the contracts' ClientConfig). */
export type CreateLimits = ClientConfig['limits'];

// Until /configlist answers, and when it cannot, the contracts' values: the ones the gateway serves.
const CreateLimitsContext = createContext<CreateLimits>(clientLimits);

/** Reads the limits from GET /configlist once for both tabs. */
export function CreateLimitsProvider({ children }: { children: ReactNode }) {
  const client = usePlatformClient();
  const [limits, setLimits] = useState<CreateLimits>(clientLimits);
  useEffect(() => {
    let active = true;
    client
      .configList()
      .then((config) => {
        if (active && config?.limits) setLimits({ ...clientLimits, ...config.limits });
      })
      // The screen works with the contracts' values; the API enforces its own either way.
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [client]);
  return <CreateLimitsContext.Provider value={limits}>{children}</CreateLimitsContext.Provider>;
}

export function useCreateLimits(): CreateLimits {
  return useContext(CreateLimitsContext);
}
