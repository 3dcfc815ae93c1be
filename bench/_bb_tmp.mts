const { benchBundle } = await import(process.cwd() + "/bench/bundle.ts");
await benchBundle();
