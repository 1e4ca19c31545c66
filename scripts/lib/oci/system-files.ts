// The files a Debian system gets from its maintainer scripts and base-passwd, which the image
// does not run or install: the accounts, name service switch, and the CA bundle.

import { byPath, type TarEntry } from "./tar.ts";

/** The account the service runs as, as in distroless images (so volumes made for those fit). */
export const NONROOT = { uid: 65532, gid: 65532, name: "nonroot", home: "/home/nonroot" } as const;

// No shell anywhere in the image, hence /sbin/nologin (which does not exist either: nobody logs in).
export const PASSWD = `root:x:0:0:root:/root:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
${NONROOT.name}:x:${NONROOT.uid}:${NONROOT.gid}:${NONROOT.name}:${NONROOT.home}:/sbin/nologin
`;

export const GROUP = `root:x:0:
nobody:x:65534:
${NONROOT.name}:x:${NONROOT.gid}:
`;

// glibc's built-in default also asks NIS and systemd-resolved; files then DNS is all there is here.
export const NSSWITCH = `passwd: files
group: files
shadow: files
hosts: files dns
networks: files
protocols: files
services: files
ethers: files
rpc: files
`;

/**
 * /etc/ssl/certs/ca-certificates.crt, which update-ca-certificates (ca-certificates' postinst)
 * would make: every certificate the package ships, in path order, each ending in a newline.
 */
export function caBundle(entries: readonly TarEntry[]): Uint8Array {
  const certs = entries
    .filter((e) => e.type === "file" && e.path.startsWith("usr/share/ca-certificates/") && e.path.endsWith(".crt"))
    .sort(byPath);
  if (certs.length === 0) throw new Error("ca-certificates shipped no certificate");
  const text = certs.map((c) => {
    const pem = new TextDecoder().decode(c.data);
    return pem.endsWith("\n") ? pem : `${pem}\n`;
  });
  return new TextEncoder().encode(text.join(""));
}
