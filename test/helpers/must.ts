// Unwraps a desk Result in tests where a failure is not the subject: it throws with the error, so
// the test fails at the call that went wrong instead of at a later, puzzling assertion.
export function must<T>(r: { ok: true; value: T } | { ok: false; error: { code?: string; message: string } }): T {
  if (!r.ok) throw new Error(r.error.code ? `${r.error.code}: ${r.error.message}` : r.error.message);
  return r.value;
}
