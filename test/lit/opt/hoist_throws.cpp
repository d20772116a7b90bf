// hoist-throws: a branch that ends in a throw becomes a check before the
// rest, which then runs unconditionally:
//   let r = if x > 0 then x * x else (throw E; 0.0)
//     ~>  let r = (let _ = if x > 0 then () else (throw E; ()) in x * x)
// (The front end's IR is already in this form where it can be: the pass runs
// before reverse mode; this input is written out.)
// RUN: grep '^// JSON ' %s | sed 's|^// JSON ||' > %t.json
// RUN: %unfad-opt --passes=lower-parallel %t.json | FileCheck %s --check-prefix=IN
// RUN: %unfad-opt --pass=hoist-throws %t.json | FileCheck %s
// RUN: %unfad-opt --pass=hoist-throws --format=json %t.json > %t.out.json
// RUN: %unfad-opt --pass=hoist-throws %t.out.json | FileCheck %s

// JSON {"functions": [{"name": "g", "marked": true, "result": "f64",
// JSON   "params": [{"name": "x", "type": "f64", "active": true, "inout": false, "written": false}],
// JSON   "body": {"kind": "let", "name": "r", "body": {"kind": "var", "name": "r", "type": "f64"},
// JSON     "value": {"kind": "if",
// JSON       "cond": {"kind": "prim", "op": "gt", "args": [{"kind": "var", "name": "x", "type": "f64"}, {"kind": "const", "type": "f64", "value": 0.0}]},
// JSON       "then": {"kind": "prim", "op": "mul", "args": [{"kind": "var", "name": "x", "type": "f64"}, {"kind": "var", "name": "x", "type": "f64"}]},
// JSON       "else": {"kind": "let", "name": "_", "value": {"kind": "throw", "thrown": "std::domain_error(\"x <= 0\")", "type": {"tuple": []}},
// JSON                "body": {"kind": "const", "type": "f64", "value": 0.0}}}}}]}

// IN-LABEL: def g(
// IN:         if gt(x, 0.0) then
// IN-NEXT:      mul(x, x)
// IN-NEXT:    else
// IN-NEXT:      let _: () = throw<()> std::domain_error("x <= 0") in
// IN-NEXT:      0.0

// CHECK-LABEL: def g(
// CHECK:         let r: f64 =
// CHECK-NEXT:      let {{_+[0-9]*}}: () =
// CHECK-NEXT:        if gt(x, 0.0) then
// CHECK-NEXT:          ()
// CHECK-NEXT:        else
// CHECK-NEXT:          let _: () = throw<()> std::domain_error("x <= 0") in
// CHECK-NEXT:          ()
// CHECK-NEXT:      in
// CHECK-NEXT:      mul(x, x)
