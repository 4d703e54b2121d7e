import { useEffect, useRef, useState } from 'react';
import { useAuth, type TotpSetup } from './AuthContext';

/**
 * Starts authenticator setup for the signed-in user once per mount (each start makes a new key and the one
 * before stops working): the key and QR URI, or why it could not start.
 */
export function useTotpSetup(): { readonly setup: TotpSetup | null; readonly error?: string } {
  const setUpTotp = useRef(useAuth().setUpTotp);
  const [result, setResult] = useState<{ setup: TotpSetup | null; error?: string }>({ setup: null });
  useEffect(() => {
    let current = true;
    setUpTotp.current().then(
      (setup) => current && setResult({ setup }),
      (error: unknown) =>
        current &&
        setResult({
          setup: null,
          error: `Could not start the authenticator setup: ${error instanceof Error ? error.message : String(error)}`,
        }),
    );
    return () => {
      current = false;
    };
  }, []);
  return result;
}
