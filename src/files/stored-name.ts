// The name and volume id Proxmox gives an uploaded file, worked out the way Proxmox does it so
// the model can use the volume right away.

/** The content types the storage upload endpoint takes, each stored in the directory of its name. */
const UPLOAD_CONTENT = new Set(["iso", "vztmpl", "import"]);

/** Perl's \s on a byte string (no Unicode rules): space, \t, \n, \v, \f, \r. */
const PERL_SPACE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;

/**
 * The file name Proxmox stores an upload under. pve-http-server's file_upload_multipart
 * (src/PVE/APIServer/AnyEvent.pm) takes the part's filename bytes and trims them with
 * PVE::Tools::trim (pve-common); then pve-storage's upload handler (PVE/API2/Storage/Status.pm)
 * passes them through PVE::Storage::normalize_content_filename (PVE/Storage.pm): chomp (nothing
 * is left to remove after the trim), drop everything up to the last `/` or `\` on the first line,
 * and replace every byte outside [a-zA-Z0-9_.-] with `_`. The parser never decodes UTF-8, so
 * each byte of a non-ASCII character becomes one `_`.
 */
export function storedFileName(name: string): string {
  // Perl's `.` (no /s) stops only at \n, unlike JavaScript's, hence [^\n].
  const base = name.replace(PERL_SPACE, "").replace(/^[^\n]*[/\\]/, "");
  let out = "";
  for (const byte of Buffer.from(base, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[a-zA-Z0-9_.-]/.test(c) ? c : "_";
  }
  return out;
}

/**
 * The volume id of an upload, `<storage>:<content>/<stored name>` (pve-storage keeps iso,
 * vztmpl and import uploads in the directory of that name: `local:iso/my_file.iso`), or
 * undefined when the content type is not one the endpoint takes.
 */
export function uploadVolumeId(storage: string, content: string | undefined, storedName: string): string | undefined {
  const type = content?.replace(PERL_SPACE, "");
  if (type === undefined || !UPLOAD_CONTENT.has(type) || storedName === "") return undefined;
  return `${storage}:${type}/${storedName}`;
}
