export { sign, invalidSignatureFor, SIGNATURE_HEADER } from './sign';
export { verify, type VerifyOutcome } from './verify';
export { diagnose, type SecretCandidate } from './diagnose';
export { checkSignature, previousSecretNote } from './check';
export { fingerprint } from './fingerprint';
