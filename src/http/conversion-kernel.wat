;; Writes a conversion answer's bytes: the amount's text parsed into an integer, each result
;; scaled from it in exact 64-bit integer arithmetic and written as decimal digits, between the
;; template's fixed parts. conversion-kernel.ts encodes the templates and reads the answers; it
;; falls back to the BigInt arithmetic of domain/money.ts whenever `answer` returns 0.
;;
;; Why WebAssembly: a bulk answer made in JavaScript from 25 BigInt results and about 100 joined
;; strings spent two fifths of its instructions on them (docs/performance.md). Here the results
;; are integers in registers and the body is written in place, in one pass; JavaScript reads it
;; out as one flat string. The arithmetic is integer only: no float anywhere.
;;
;; The scaling (domain/money.ts, ScaleFactor): for an amount of `u` units at its scale, the
;; result in millionths, rounded half-up, is floor((u·times + divisor) / twiceDivisor). With
;; times = q·twiceDivisor + r (0 ≤ r < twiceDivisor), that is
;;   u·q + floor((u·r + divisor) / twiceDivisor),
;; whose products stay in 64 bits for the amounts and rates asked about: `answer` checks that
;; they do (bit lengths of u and q, of u and r, each at most 63), and returns 0 if one would not.
(module
  (memory (export "memory") 17 17)

  ;; The layout, read by conversion-kernel.ts. The memory never grows, so its views stay valid.
  ;; The amount's text, as sent (a numeric string: ASCII).
  (global $amountAt (export "amountAt") i32 (i32.const 0))
  (global (export "amountMax") i32 (i32.const 128))
  ;; [128, 192): a result's digits, written backwards from $digitsEnd.
  (global $digitsEnd i32 (i32.const 192))
  ;; The answer written.
  (global $bodyAt (export "bodyAt") i32 (i32.const 1024))
  (global (export "bodyMax") i32 (i32.const 64512))
  ;; Templates, placed by conversion-kernel.ts.
  (global (export "arenaAt") i32 (i32.const 65536))
  (global (export "arenaEnd") i32 (i32.const 1114112))
  ;; Amount scales (digits after the point) a template has terms for: 0 to this.
  (global $maxScale (export "maxScale") i32 (i32.const 4))

  ;; A template, at an 8-byte aligned offset:
  ;;   i32 targets
  ;;   run: the answer up to and with the amount's opening quote
  ;;   run: from the amount's closing quote to the first result
  ;;   (to 8 bytes) then per target:
  ;;     (maxScale + 1) × [u64 q, u64 r, u64 divisor, u64 twiceDivisor], by amount scale
  ;;     run: what follows the target's result
  ;;     (to 8 bytes)
  ;; A run is an i32 length and that many bytes.

  ;; Copies `length` bytes from `from` to `to`; returns where the copy ends.
  (func $copy (param $to i32) (param $from i32) (param $length i32) (result i32)
    (memory.copy (local.get $to) (local.get $from) (local.get $length))
    (i32.add (local.get $to) (local.get $length)))

  ;; Copies the run at `run` to `to`; returns where the copy ends.
  (func $copyRun (param $to i32) (param $run i32) (result i32)
    (call $copy (local.get $to) (i32.add (local.get $run) (i32.const 4)) (i32.load (local.get $run))))

  ;; Where the run at `run` ends.
  (func $afterRun (param $run i32) (result i32)
    (i32.add (i32.add (local.get $run) (i32.const 4)) (i32.load (local.get $run))))

  (func $aligned (param $at i32) (result i32)
    (i32.and (i32.add (local.get $at) (i32.const 7)) (i32.const -8)))

  (func $bitLength (param $x i64) (result i32)
    (i32.sub (i32.const 64) (i32.wrap_i64 (i64.clz (local.get $x)))))

  ;; Writes a count of millionths as domain/money.ts's formatUnsigned does: the whole part (at
  ;; least one digit), a point, six places. Returns where the text ends.
  (func $millionths (param $to i32) (param $count i64) (result i32)
    (local $at i32) (local $places i32) (local $fraction i32) (local $whole i64) (local $small i32)
    (local.set $at (global.get $digitsEnd))
    (local.set $fraction (i32.wrap_i64 (i64.rem_u (local.get $count) (i64.const 1000000))))
    (local.set $whole (i64.div_u (local.get $count) (i64.const 1000000)))
    (loop $place
      (local.set $at (i32.sub (local.get $at) (i32.const 1)))
      (i32.store8 (local.get $at) (i32.add (i32.const 48) (i32.rem_u (local.get $fraction) (i32.const 10))))
      (local.set $fraction (i32.div_u (local.get $fraction) (i32.const 10)))
      (local.set $places (i32.add (local.get $places) (i32.const 1)))
      (br_if $place (i32.lt_u (local.get $places) (i32.const 6))))
    (local.set $at (i32.sub (local.get $at) (i32.const 1)))
    (i32.store8 (local.get $at) (i32.const 46)) ;; '.'
    ;; 64-bit divisions only while the whole part needs them, which it seldom does.
    (block $fits
      (loop $wide
        (br_if $fits (i64.lt_u (local.get $whole) (i64.const 4294967296)))
        (local.set $at (i32.sub (local.get $at) (i32.const 1)))
        (i32.store8 (local.get $at) (i32.add (i32.const 48) (i32.wrap_i64 (i64.rem_u (local.get $whole) (i64.const 10)))))
        (local.set $whole (i64.div_u (local.get $whole) (i64.const 10)))
        (br $wide)))
    (local.set $small (i32.wrap_i64 (local.get $whole)))
    (loop $digit
      (local.set $at (i32.sub (local.get $at) (i32.const 1)))
      (i32.store8 (local.get $at) (i32.add (i32.const 48) (i32.rem_u (local.get $small) (i32.const 10))))
      (local.set $small (i32.div_u (local.get $small) (i32.const 10)))
      (br_if $digit (local.get $small)))
    (call $copy (local.get $to) (local.get $at) (i32.sub (global.get $digitsEnd) (local.get $at))))

  ;; The answer for the template at `template` and the amount's `length` bytes at amountAt:
  ;; its length in bytes, written at bodyAt; or 0 when the kernel does not answer it (an amount
  ;; that is not positive, has more than 18 digits or more places than maxScale, or a product
  ;; that would not fit in 64 bits), for the caller to answer with BigInt.
  (func (export "answer") (param $template i32) (param $length i32) (result i32)
    (local $units i64) (local $scale i32) (local $at i32) (local $char i32) (local $point i32)
    (local $digits i32) (local $unitBits i32) (local $targets i32) (local $to i32) (local $terms i32)
    (local $q i64) (local $r i64)
    ;; The amount: [+]digits[.digits] or [+].digits (DECISIONS §2); anything else is left to BigInt.
    (local.set $point (i32.const -1))
    (if (i32.eq (i32.load8_u (global.get $amountAt)) (i32.const 43)) ;; '+'
      (then (local.set $at (i32.const 1))))
    (block $parsed
      (loop $next
        (br_if $parsed (i32.ge_u (local.get $at) (local.get $length)))
        (local.set $char (i32.load8_u (i32.add (global.get $amountAt) (local.get $at))))
        (if (i32.eq (local.get $char) (i32.const 46)) ;; '.'
          (then
            (if (i32.ge_s (local.get $point) (i32.const 0)) (then (return (i32.const 0))))
            (local.set $point (local.get $at)))
          (else
            (local.set $char (i32.sub (local.get $char) (i32.const 48)))
            (if (i32.gt_u (local.get $char) (i32.const 9)) (then (return (i32.const 0))))
            (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
            ;; 18 digits stay below 10^18 < 2^63.
            (if (i32.gt_u (local.get $digits) (i32.const 18)) (then (return (i32.const 0))))
            (local.set $units (i64.add (i64.mul (local.get $units) (i64.const 10)) (i64.extend_i32_u (local.get $char))))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $next)))
    (if (i64.eqz (local.get $units)) (then (return (i32.const 0))))
    (if (i32.ge_s (local.get $point) (i32.const 0))
      (then (local.set $scale (i32.sub (i32.sub (local.get $length) (local.get $point)) (i32.const 1)))))
    (if (i32.gt_u (local.get $scale) (global.get $maxScale)) (then (return (i32.const 0))))
    (local.set $unitBits (call $bitLength (local.get $units)))

    (local.set $targets (i32.load (local.get $template)))
    (local.set $at (i32.add (local.get $template) (i32.const 4)))
    (local.set $to (call $copyRun (global.get $bodyAt) (local.get $at)))
    (local.set $at (call $afterRun (local.get $at)))
    (local.set $to (call $copy (local.get $to) (global.get $amountAt) (local.get $length)))
    (local.set $to (call $copyRun (local.get $to) (local.get $at)))
    (local.set $at (call $aligned (call $afterRun (local.get $at))))
    (block $done
      (loop $target
        (br_if $done (i32.eqz (local.get $targets)))
        (local.set $terms (i32.add (local.get $at) (i32.shl (local.get $scale) (i32.const 5))))
        (local.set $q (i64.load (local.get $terms)))
        (local.set $r (i64.load offset=8 (local.get $terms)))
        (if (i32.gt_u (i32.add (local.get $unitBits) (call $bitLength (local.get $q))) (i32.const 63)) (then (return (i32.const 0))))
        (if (i32.gt_u (i32.add (local.get $unitBits) (call $bitLength (local.get $r))) (i32.const 63)) (then (return (i32.const 0))))
        (local.set $to
          (call $millionths (local.get $to)
            (i64.add
              (i64.mul (local.get $units) (local.get $q))
              (i64.div_u
                (i64.add (i64.mul (local.get $units) (local.get $r)) (i64.load offset=16 (local.get $terms)))
                (i64.load offset=24 (local.get $terms))))))
        (local.set $at (i32.add (local.get $at) (i32.shl (i32.add (global.get $maxScale) (i32.const 1)) (i32.const 5))))
        (local.set $to (call $copyRun (local.get $to) (local.get $at)))
        (local.set $at (call $aligned (call $afterRun (local.get $at))))
        (local.set $targets (i32.sub (local.get $targets) (i32.const 1)))
        (br $target)))
    (i32.sub (local.get $to) (global.get $bodyAt))))
