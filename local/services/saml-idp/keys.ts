// The local identity provider's signing key pair and its self-signed certificate, made for the state folder on its
// first start (`<state>/saml-idp/signing-key.pem` and `signing-cert.pem`, owner-only, in an owner-only folder), as
// the Cognito stand-in makes its token key: the certificate is what the identity provider's metadata publishes and
// what the service provider trusts, so a response signed with any other key is refused.
import forge from 'node-forge';
import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownerOnlyDirectory, ownerOnlyFile } from '../cognito-flows/state-files';

export interface IdpSigningKeys {
  /** PKCS#8 PEM. */
  readonly privateKey: string;
  /** The X.509 certificate, PEM. */
  readonly certificate: string;
}

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

/** A new RSA key pair with a self-signed certificate naming `commonName` (nothing written). */
export function createSigningKeys(commonName = 'Caracal local identity provider'): IdpSigningKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(privatePem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // A positive serial number (the leading byte's high bit clear).
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + TEN_YEARS_MS);
  const name = [{ name: 'commonName', value: commonName }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.sign(key, forge.md.sha256.create());
  return { privateKey: privatePem, certificate: forge.pki.certificateToPem(cert) };
}

/** The state folder's key pair and certificate, made on the first call (and again if the certificate expired). */
export function loadSigningKeys(stateDir: string): IdpSigningKeys {
  const dir = join(stateDir, 'saml-idp');
  ownerOnlyDirectory(dir);
  const keyFile = join(dir, 'signing-key.pem');
  const certFile = join(dir, 'signing-cert.pem');
  if (existsSync(keyFile) && existsSync(certFile)) {
    ownerOnlyFile(keyFile);
    ownerOnlyFile(certFile);
    const keys = { privateKey: readFileSync(keyFile, 'utf8'), certificate: readFileSync(certFile, 'utf8') };
    if (new Date(new X509Certificate(keys.certificate).validTo).getTime() > Date.now()) return keys;
  }
  const keys = createSigningKeys();
  writeFileSync(keyFile, keys.privateKey, { mode: 0o600 });
  writeFileSync(certFile, keys.certificate, { mode: 0o600 });
  ownerOnlyFile(keyFile);
  ownerOnlyFile(certFile);
  return keys;
}

/** The certificate's base64 body, as metadata's ds:X509Certificate holds it. */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}
