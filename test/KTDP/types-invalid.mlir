// Every type rule of spec §3 is checked when the type is parsed, with the
// location of the offending piece.
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{access tile element type must be 'index', got 'f16'}}
func.func @f(%a: !ktdp.access_tile<8x64xf16>) { return }

// -----

// expected-error @+1 {{access tile dimension must be >= 0 or '?'}}
func.func @f(%a: !ktdp.access_tile<-1x64xindex>) { return }

// -----

// expected-error @+1 {{access tile element type must be 'index', got 'i64'}}
func.func @f(%a: !ktdp.access_tile<i64>) { return }

// -----

// expected-error @+1 {{runtime_arg: clause 'granularity' given twice}}
func.func @f(%a: !ktdp.runtime_arg<index, granularity=4, granularity=8>) { return }

// -----

// expected-error @+1 {{runtime_arg: clause 'upperbound' given twice}}
func.func @f(%a: !ktdp.runtime_arg<index, upperbound=4, granularity=2, upperbound=8>) { return }

// -----

// expected-error @+1 {{runtime_arg: unknown clause 'alignment'}}
func.func @f(%a: !ktdp.runtime_arg<index, alignment=4>) { return }

// -----

// expected-error @+1 {{runtime_arg granularity must be > 0, got 0}}
func.func @f(%a: !ktdp.runtime_arg<index, granularity=0>) { return }

// -----

// expected-error @+1 {{runtime_arg upperbound must be > 0, got -3}}
func.func @f(%a: !ktdp.runtime_arg<index, upperbound=-3>) { return }

// -----

// expected-error @+1 {{runtime_arg underlying type must be index, an integer or a float type, got 'tensor<4xf16>'}}
func.func @f(%a: !ktdp.runtime_arg<tensor<4xf16>>) { return }

// -----

#g = affine_set<(g) : (g >= 0, -g + 3 >= 0)>
// expected-error @+1 {{tile_future needs at least one partial type}}
func.func @f(%a: !ktdp.tile_future<(), groups = #g>) { return }

// -----

#g = affine_set<(g) : (g >= 0, -g + 3 >= 0)>
// expected-error @+1 {{tile_future partial types must be ranked tensors, got 'f16'}}
func.func @f(%a: !ktdp.tile_future<(f16), groups = #g>) { return }

// -----

#g = affine_set<(g)[s0] : (g >= 0, -g + s0 >= 0)>
// expected-error @+1 {{tile_future groups must be a 1-D set without symbols, got 1 dims and 1 symbols}}
func.func @f(%a: !ktdp.tile_future<(tensor<4xf16>), groups = #g>) { return }

// -----

#g = affine_set<(g, h) : (g >= 0, h >= 0)>
// expected-error @+1 {{tile_future groups must be a 1-D set without symbols, got 2 dims and 0 symbols}}
func.func @f(%a: !ktdp.tile_future<(tensor<4xf16>), groups = #g>) { return }

// -----

// expected-error @+1 {{tile_future needs a groups set (spec §3.3)}}
func.func @f(%a: !ktdp.tile_future<(tensor<4xf16>)>) { return }

// -----

// expected-error @+1 {{tile_future groups must be an affine_set}}
func.func @f(%a: !ktdp.tile_future<(tensor<4xf16>), groups = 3>) { return }

// -----

// expected-error @+1 {{expected 'x' in dimension list}}
func.func @f(%a: !ktdp.access_tile<8 64xindex>) { return }

// -----

// expected-error @+1 {{access tile dimension must be >= 0 or '?'}}
func.func @f(%a: !ktdp.access_tile<8x-2xindex>) { return }
