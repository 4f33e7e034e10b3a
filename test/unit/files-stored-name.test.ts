import { describe, expect, test } from "bun:test";
import { storedFileName, uploadVolumeId } from "../../src/files/stored-name.ts";

// pve-http-server trims the part's filename (PVE::Tools::trim), then pve-storage's
// normalize_content_filename drops everything up to the last / or \ and turns every byte
// outside [a-zA-Z0-9_.-] into _.
describe("storedFileName", () => {
  const cases: [string, string][] = [
    ["debian-12.iso", "debian-12.iso"],
    ["my file.iso", "my_file.iso"],
    ["  padded.iso \t", "padded.iso"],
    ["dir/sub/x.iso", "x.iso"],
    ["C:\\Users\\me\\win.iso", "win.iso"],
    ["a\\b/c\\d.iso", "d.iso"],
    ["trailing/", ""],
    ["ümlaut.iso", "__mlaut.iso"],
    ["日本.iso", "______.iso"],
    ["semi;colon,comma+plus=eq.iso", "semi_colon_comma_plus_eq.iso"],
    ["tmpl.tar.zst", "tmpl.tar.zst"],
    ["UPPER_lower-1.2.img", "UPPER_lower-1.2.img"],
    ["x\u2028y/z.iso", "z.iso"],
    ["\u00a0nbsp.iso", "__nbsp.iso"],
  ];
  test.each(cases)("%j -> %j", (name, stored) => {
    expect(storedFileName(name)).toBe(stored);
  });
});

describe("uploadVolumeId", () => {
  const cases: [string, string | undefined, string, string | undefined][] = [
    ["local", "iso", "my_file.iso", "local:iso/my_file.iso"],
    ["local", "vztmpl", "debian.tar.zst", "local:vztmpl/debian.tar.zst"],
    ["nfs-store", "import", "vm.ova", "nfs-store:import/vm.ova"],
    ["local", " iso ", "a.iso", "local:iso/a.iso"],
    ["local", undefined, "a.iso", undefined],
    ["local", "images", "a.raw", undefined],
    ["local", "iso", "", undefined],
  ];
  test.each(cases)("%s, %j, %s -> %j", (storage, content, stored, volid) => {
    expect(uploadVolumeId(storage, content, stored)).toBe(volid);
  });
});
