// Test certificates made with openssl in a folder: self-signed CAs and certificates they sign (one day, RSA 2048),
// for the TLS tests (public listener, client certificates, broker-to-broker).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class TestCertificates {
  constructor(readonly dir: string) {}

  /** A self-signed CA: `<name>.key` and `<name>.crt`. */
  ca(name: string, commonName = name): void {
    this.openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${commonName}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.crt`,
    );
  }

  /** `<name>.key` and `<name>.crt` for common name `cn`, signed by CA `ca`, with the x509v3 `extensions` lines. */
  sign(name: string, cn: string, ca: string, extensions: string): void {
    writeFileSync(join(this.dir, `${name}.ext`), extensions);
    this.openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${cn}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
    );
    this.openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.crt`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '1',
      '-out',
      `${name}.crt`,
      '-extfile',
      `${name}.ext`,
    );
  }

  private openssl(...args: string[]): void {
    execFileSync('openssl', args, { cwd: this.dir, stdio: 'pipe' });
  }
}
