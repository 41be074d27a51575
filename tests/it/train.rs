//! The training examples at reduced size: the graph API trains them with
//! smelt's own gradients, on the compiled backend.

#[path = "../../examples/train_bert_tiny.rs"]
mod bert_tiny;
#[path = "../../examples/train_lstm_forecaster.rs"]
mod lstm_forecaster;
#[path = "../../examples/train_softmax_regression.rs"]
mod softmax_regression;

/// Softmax regression on the digits: the loss falls from ln(10) and the
/// model classifies most held-out images after 150 steps (the example's 300
/// reach 91%).
#[test]
fn softmax_regression_learns_the_digits() {
    let r = softmax_regression::train(150, 50, "cpu").unwrap();
    let (first, last) = (r.curve[0].1, r.curve.last().unwrap().1);
    assert!((first - 10f64.ln()).abs() < 1e-4, "the first loss is that of zero weights: {first}");
    assert!(last < 0.1, "loss after 150 steps: {last}");
    assert!(r.curve.windows(2).all(|w| w[1].1 < w[0].1), "the loss falls at every logged step: {:?}", r.curve);
    assert!(r.test_accuracy > 0.88, "test accuracy {}", r.test_accuracy);
    assert_eq!(r.step_modules.len(), 1, "a training step is one cluster");
}

/// The LSTM forecaster: the mean of the three heads' squared errors falls
/// fivefold in 120 Adam steps, and every head already beats persistence on
/// the validation hours.
#[test]
fn lstm_forecaster_beats_persistence() {
    let r = lstm_forecaster::train(120, 40, "cpu").unwrap();
    let (first, last) = (r.curve[0].1, r.curve.last().unwrap().1);
    assert!(last < first / 5.0, "loss {first} -> {last}");
    for (k, (model, persistence)) in r.validation.iter().enumerate() {
        assert!(model < persistence, "head {k}: validation RMSE {model} against persistence {persistence}");
    }
    assert_eq!(r.step_modules.len(), 1, "a training step is one cluster");
}

/// The tiny BERT encoder: the loss falls below the example's target and the
/// classifier is right on unseen sequences.
#[test]
fn bert_tiny_learns_an_order_dependent_task() {
    let r = bert_tiny::train(400, 100, "cpu").unwrap();
    let last = r.curve.last().unwrap().1;
    assert!(last < bert_tiny::TARGET_LOSS, "loss after 400 steps: {last} ({:?})", r.curve);
    assert!(r.test_accuracy > 0.9, "accuracy on unseen sequences: {}", r.test_accuracy);
    assert_eq!(r.step_modules.len(), 1, "a training step is one cluster");
}
