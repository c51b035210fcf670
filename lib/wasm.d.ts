// A `.wasm` import is the file's bytes: esbuild's binary loader in the bundles that embed one
// (BuildProperties Loader `.wasm=binary`, infra/deploy/build.ts), test/support/wasm-binary.ts in tests.
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
