"use client";

import { useEffect, useState } from "react";

/**
 * False during the server render and the first client render, true once React has hydrated the component. A form
 * disables its submit button until then: before hydration a click would submit it natively (a GET with every
 * field, the password included, in the URL) and text typed meanwhile would be reset by the hydration.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
