// The multipart body of a Proxmox upload, shaped for pve-http-server's pattern-matching parser
// (../shared/pve/FACTS.md, "Upload"): optional text parts content, checksum-algorithm and
// checksum in that order, then the file part named `filename` whose Content-Disposition line
// comes first and is spelled exactly so. Everything else travels in the query string.
//
// The file part has no Content-Type line. The parser ignores it, and it runs on every socket
// read: a read that ends after the part's closing quote but before the blank line that ends
// its headers stores the rest of those headers in the file (and answers 200). Without the
// line that rest is at most the 4 bytes "\r\n\r\n", instead of 44; the checksum sent by
// default makes the task catch even those.
import { randomBytes } from "node:crypto";
import { LocalRefusal } from "../proxmox/errors.ts";
import { scalarText, type Params, type ParamValue } from "../proxmox/params.ts";

/** The only text parts the parser looks for, in the only order it accepts. */
export const TEXT_PARTS = ["content", "checksum-algorithm", "checksum"] as const;

export interface UploadFraming {
  /** multipart/form-data with the boundary unquoted. */
  contentType: string;
  /** Text parts and the file part's headers, up to the first byte of the file. */
  head: Buffer;
  /** The line break and closing delimiter after the last byte of the file. */
  tail: Buffer;
  /** head + file + tail: the Content-Length. */
  length: number;
  /** The name Proxmox stores the file under. */
  fileName: string;
  /** Parameters for the query string. */
  query: Params;
}

const BOUNDARY = /^[A-Za-z0-9'()+_\-./:=?]{1,70}$/;
const CONTROL = /[\x00-\x1f\x7f]/;

function refuse(message: string): never {
  throw new LocalRefusal("invalid_parameters", message);
}

/** A fresh boundary: 128 random bits, no quoting needed, no `;` or `,`. */
export function newBoundary(): string {
  return `proxmoxvemcp${randomBytes(16).toString("hex")}`;
}

function textValue(name: string, value: ParamValue): string {
  if (Array.isArray(value)) refuse(`parameter '${name}' must be a single value for an upload`);
  const text = scalarText(value);
  if (CONTROL.test(text))
    refuse(`parameter '${name}' contains control characters (line breaks would break the upload body)`);
  return text;
}

function checkFileName(name: string): string {
  if (name.trim() === "") refuse("the upload's file name is empty; pass parameters.filename");
  if (name.includes('"'))
    refuse(
      `file name ${JSON.stringify(name)} contains a double quote, which Proxmox's upload parser cannot read; pass another parameters.filename`,
    );
  if (CONTROL.test(name))
    refuse(`file name ${JSON.stringify(name)} contains control characters; pass another parameters.filename`);
  return name;
}

/**
 * Plans the body for a file of `fileSize` bytes. `filename` in `params` names the stored file
 * (default: `defaultName`); content, checksum-algorithm and checksum become text parts.
 */
export function frameUpload(params: Params, defaultName: string, fileSize: number, boundary: string): UploadFraming {
  if (!BOUNDARY.test(boundary)) throw new Error(`invalid multipart boundary ${JSON.stringify(boundary)}`);
  if ("tmpfilename" in params) refuse("parameter 'tmpfilename' is set by Proxmox itself and refused in a request");
  const fileName = checkFileName(params.filename === undefined ? defaultName : textValue("filename", params.filename));

  let head = "";
  for (const field of TEXT_PARTS) {
    const value = params[field];
    if (value === undefined) continue;
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${textValue(field, value)}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="filename"; filename="${fileName}"\r\n\r\n`;

  const query: Params = {};
  for (const [name, value] of Object.entries(params)) {
    if (name !== "filename" && !(TEXT_PARTS as readonly string[]).includes(name)) query[name] = value;
  }
  const headBytes = Buffer.from(head, "utf8");
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, "latin1");
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: headBytes,
    tail,
    length: headBytes.length + fileSize + tail.length,
    fileName,
    query,
  };
}

const UPLOAD_PATH = /^\/nodes\/[^/]+\/storage\/[^/]+\/upload$/;

/** True for the API paths that take a multipart upload (today only the storage upload). */
export function isUploadPath(validatedPath: string): boolean {
  return UPLOAD_PATH.test(validatedPath);
}
