// A port with only some of its methods: what a function's wiring hands the domain, so that the
// function's bundle holds (and its role allows) only the adapter methods its operation calls. Adapter
// methods are module-level functions, so esbuild drops every one no wiring getter names
// (docs/architecture.md, "Bundles"). Any other method rejects, naming itself: a call the wiring did
// not foresee fails loudly (a 500 in every test that takes that path), never by sending something.
export function only<T extends object>(port: string, methods: Partial<T>): T {
  return new Proxy(methods, {
    get(target, name) {
      if (typeof name === 'symbol' || name === 'then' || name in target) return Reflect.get(target, name);
      return () => Promise.reject(new Error(`${port}.${name} is not wired in this function`));
    },
  }) as T;
}
