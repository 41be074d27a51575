//! The opcode table: every HLO opcode's printed name, arity and properties in one place.
//!
//! Parser, printer, verifier and passes all read this table, so adding an opcode is
//! one line here plus its shape rule and its interpreter kernel.

use std::fmt;

/// How many operands an opcode takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    Fixed(u8),
    AtLeast(u8),
}

impl Arity {
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Arity::Fixed(k) => n == k as usize,
            Arity::AtLeast(k) => n >= k as usize,
        }
    }
}

impl fmt::Display for Arity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arity::Fixed(k) => write!(f, "{k}"),
            Arity::AtLeast(k) => write!(f, "at least {k}"),
        }
    }
}

/// Property bits of an opcode.
pub mod props {
    /// Computes each output element from the same-index elements of its operands.
    pub const ELEMENTWISE: u8 = 1;
    /// Binary and commutative.
    pub const COMMUTATIVE: u8 = 2;
    /// Has effects beyond its result (must not be removed or duplicated).
    pub const SIDE_EFFECT: u8 = 4;
    /// Transcendental or otherwise expensive per element (never duplicated by fusion).
    pub const EXPENSIVE: u8 = 8;
    /// Only moves or reinterprets data, computes nothing.
    pub const DATA_MOVEMENT: u8 = 16;
}

macro_rules! opcodes {
    ($( $variant:ident = $name:literal, $arity:expr, $props:expr; )*) => {
        /// An HLO opcode.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Opcode { $( $variant, )* }

        impl Opcode {
            pub const ALL: &'static [Opcode] = &[ $( Opcode::$variant, )* ];

            /// The name as HLO text spells it.
            pub fn name(self) -> &'static str {
                match self { $( Opcode::$variant => $name, )* }
            }

            pub fn arity(self) -> Arity {
                match self { $( Opcode::$variant => $arity, )* }
            }

            fn props(self) -> u8 {
                match self { $( Opcode::$variant => $props, )* }
            }

            pub fn from_name(name: &str) -> Option<Opcode> {
                match name { $( $name => Some(Opcode::$variant), )* _ => None }
            }
        }
    };
}

use Arity::{AtLeast, Fixed};
use props::*;

opcodes! {
    // Leaves.
    Parameter = "parameter", Fixed(0), 0;
    Constant = "constant", Fixed(0), 0;
    Iota = "iota", Fixed(0), 0;
    // Unary elementwise.
    Abs = "abs", Fixed(1), ELEMENTWISE;
    Cbrt = "cbrt", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Ceil = "ceil", Fixed(1), ELEMENTWISE;
    Clz = "count-leading-zeros", Fixed(1), ELEMENTWISE;
    Convert = "convert", Fixed(1), ELEMENTWISE;
    Cosine = "cosine", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Erf = "erf", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Exp = "exponential", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Expm1 = "exponential-minus-one", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Floor = "floor", Fixed(1), ELEMENTWISE;
    IsFinite = "is-finite", Fixed(1), ELEMENTWISE;
    Log = "log", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Log1p = "log-plus-one", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Logistic = "logistic", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Negate = "negate", Fixed(1), ELEMENTWISE;
    Not = "not", Fixed(1), ELEMENTWISE;
    Popcnt = "popcnt", Fixed(1), ELEMENTWISE;
    ReducePrecision = "reduce-precision", Fixed(1), ELEMENTWISE;
    RoundNearestAfz = "round-nearest-afz", Fixed(1), ELEMENTWISE;
    RoundNearestEven = "round-nearest-even", Fixed(1), ELEMENTWISE;
    Rsqrt = "rsqrt", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Sign = "sign", Fixed(1), ELEMENTWISE;
    Sine = "sine", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Sqrt = "sqrt", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Tan = "tan", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Tanh = "tanh", Fixed(1), ELEMENTWISE | EXPENSIVE;
    Copy = "copy", Fixed(1), ELEMENTWISE | DATA_MOVEMENT;
    // Complex numbers: parts in, parts out (`crate::complex` lowers them to real ops).
    Real = "real", Fixed(1), ELEMENTWISE;
    Imag = "imag", Fixed(1), ELEMENTWISE;
    // Binary elementwise.
    Add = "add", Fixed(2), ELEMENTWISE | COMMUTATIVE;
    And = "and", Fixed(2), ELEMENTWISE | COMMUTATIVE;
    Atan2 = "atan2", Fixed(2), ELEMENTWISE | EXPENSIVE;
    Complex = "complex", Fixed(2), ELEMENTWISE;
    Compare = "compare", Fixed(2), ELEMENTWISE;
    Divide = "divide", Fixed(2), ELEMENTWISE | EXPENSIVE;
    Maximum = "maximum", Fixed(2), ELEMENTWISE | COMMUTATIVE;
    Minimum = "minimum", Fixed(2), ELEMENTWISE | COMMUTATIVE;
    Multiply = "multiply", Fixed(2), ELEMENTWISE | COMMUTATIVE;
    Or = "or", Fixed(2), ELEMENTWISE | COMMUTATIVE;
    Power = "power", Fixed(2), ELEMENTWISE | EXPENSIVE;
    Remainder = "remainder", Fixed(2), ELEMENTWISE | EXPENSIVE;
    ShiftLeft = "shift-left", Fixed(2), ELEMENTWISE;
    ShiftRightArithmetic = "shift-right-arithmetic", Fixed(2), ELEMENTWISE;
    ShiftRightLogical = "shift-right-logical", Fixed(2), ELEMENTWISE;
    Subtract = "subtract", Fixed(2), ELEMENTWISE;
    Xor = "xor", Fixed(2), ELEMENTWISE | COMMUTATIVE;
    // Ternary elementwise.
    Clamp = "clamp", Fixed(3), ELEMENTWISE;
    Select = "select", Fixed(3), ELEMENTWISE;
    // Shape and data movement.
    Bitcast = "bitcast", Fixed(1), DATA_MOVEMENT;
    BitcastConvert = "bitcast-convert", Fixed(1), DATA_MOVEMENT;
    Broadcast = "broadcast", Fixed(1), DATA_MOVEMENT;
    Concatenate = "concatenate", AtLeast(1), DATA_MOVEMENT;
    DynamicSlice = "dynamic-slice", AtLeast(1), DATA_MOVEMENT;
    DynamicUpdateSlice = "dynamic-update-slice", AtLeast(2), DATA_MOVEMENT;
    Gather = "gather", Fixed(2), DATA_MOVEMENT;
    Pad = "pad", Fixed(2), DATA_MOVEMENT;
    Reshape = "reshape", Fixed(1), DATA_MOVEMENT;
    Reverse = "reverse", Fixed(1), DATA_MOVEMENT;
    Slice = "slice", Fixed(1), DATA_MOVEMENT;
    Transpose = "transpose", Fixed(1), DATA_MOVEMENT;
    // Reductions, contractions and other compound ops.
    BatchNormGrad = "batch-norm-grad", Fixed(5), 0;
    BatchNormInference = "batch-norm-inference", Fixed(5), 0;
    BatchNormTraining = "batch-norm-training", Fixed(3), 0;
    Convolution = "convolution", Fixed(2), 0;
    Dot = "dot", Fixed(2), 0;
    Map = "map", AtLeast(1), 0;
    Reduce = "reduce", AtLeast(2), 0;
    ReduceWindow = "reduce-window", AtLeast(2), 0;
    Scatter = "scatter", AtLeast(3), 0;
    SelectAndScatter = "select-and-scatter", Fixed(3), 0;
    Sort = "sort", AtLeast(1), 0;
    TopK = "topk", Fixed(1), 0;
    Fft = "fft", Fixed(1), EXPENSIVE;
    // Random numbers.
    Rng = "rng", AtLeast(2), SIDE_EFFECT;
    RngBitGenerator = "rng-bit-generator", Fixed(1), 0;
    RngGetAndUpdateState = "rng-get-and-update-state", Fixed(0), SIDE_EFFECT;
    // Control flow, calls and tuples.
    Call = "call", AtLeast(0), 0;
    Conditional = "conditional", AtLeast(1), 0;
    CustomCall = "custom-call", AtLeast(0), 0;
    Fusion = "fusion", AtLeast(0), 0;
    GetTupleElement = "get-tuple-element", Fixed(1), 0;
    OptimizationBarrier = "opt-barrier", Fixed(1), 0;
    Tuple = "tuple", AtLeast(0), 0;
    While = "while", Fixed(1), 0;
    AfterAll = "after-all", AtLeast(0), SIDE_EFFECT;
    AddDependency = "add-dependency", Fixed(2), 0;
    PartitionId = "partition-id", Fixed(0), 0;
    ReplicaId = "replica-id", Fixed(0), 0;
    GetDimensionSize = "get-dimension-size", Fixed(1), 0;
}

impl Opcode {
    pub fn is_elementwise(self) -> bool {
        self.props() & ELEMENTWISE != 0
    }

    pub fn is_commutative(self) -> bool {
        self.props() & COMMUTATIVE != 0
    }

    pub fn has_side_effect(self) -> bool {
        self.props() & SIDE_EFFECT != 0
    }

    pub fn is_expensive(self) -> bool {
        self.props() & EXPENSIVE != 0
    }

    pub fn is_data_movement(self) -> bool {
        self.props() & DATA_MOVEMENT != 0
    }

    /// Elementwise with one operand.
    pub fn is_elementwise_unary(self) -> bool {
        self.is_elementwise() && self.arity() == Arity::Fixed(1)
    }

    /// Elementwise with two operands.
    pub fn is_elementwise_binary(self) -> bool {
        self.is_elementwise() && self.arity() == Arity::Fixed(2)
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &op in Opcode::ALL {
            assert!(seen.insert(op.name()), "duplicate name {}", op.name());
            assert_eq!(Opcode::from_name(op.name()), Some(op));
        }
    }
}
