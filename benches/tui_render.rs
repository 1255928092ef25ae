//! Rendering cost of the viewer: one full frame of the whole app at 200x60 (and 80x24),
//! drawn through the real crossterm backend into a byte counter, so buffer diffing and
//! escape-code generation are included. The app plays "walk" so every frame changes.

use bonescope::tui::offscreen::{counting_terminal, sample_app};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn render(c: &mut Criterion) {
    let mut g = c.benchmark_group("render");
    for (w, h) in [(200u16, 60u16), (80, 24)] {
        let mut app = sample_app("walk", 0.0);
        app.playing = true;
        let (mut term, sink) = counting_terminal(w, h);
        g.bench_function(format!("app_{w}x{h}"), |b| {
            b.iter(|| {
                app.tick(1.0 / 30.0);
                term.draw(|f| bonescope::tui::render::draw(f, &mut app))
                    .expect("draw");
                black_box(sink.bytes())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, render);
criterion_main!(benches);
