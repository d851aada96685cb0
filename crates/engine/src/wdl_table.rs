// The fitted win-chance model's coefficients, included by wdl.rs.
// Written by `konakis wdl-fit` (docs/winchances.md); not edited by hand.
// konakis wdl-fit --holdout 5 --ridge 1e-4 default=1e-5 --data <files below>
// default: default.bin (9850 games), ridge 0.00001, hold-out period 5
// KingCapture=English: english.bin (9754 games), ridge 0.0001, hold-out period 5
// Ashton: ashton.bin (9988 games), ridge 0.0001, hold-out period 5

/// The fitted models: by family (default, KingCapture=English, Ashton), then side to
/// move (attackers, defenders). Coefficients in centi-soldiers, constant term first.
const MODELS: [[Model; 2]; 3] = [
    // default
    [
        // attackers to move
        Model {
            centre: [220.434, 412.632, 161.301, 231.420],
            width: [46.876, -180.438, 724.717, 1030.019],
            scale: [165.826, 351.447, 200.889, -266.961],
            at_zero: (0.0690, 0.4877),
        },
        // defenders to move
        Model {
            centre: [-218.677, -176.552, -268.255, -341.263],
            width: [42.295, -53.877, 644.278, 919.811],
            scale: [173.741, 336.235, 186.902, -219.241],
            at_zero: (0.1015, 0.0269),
        },
    ],
    // KingCapture=English
    [
        // attackers to move
        Model {
            centre: [169.158, -61.878, -17.076, -4.426],
            width: [24.028, -52.904, -28.171, -9.821],
            scale: [32.703, 172.287, 36.703, 6.538],
            at_zero: (0.0323, 0.8065),
        },
        // defenders to move
        Model {
            centre: [-158.386, 58.395, 14.793, 3.288],
            width: [26.625, -12.612, -14.062, -5.984],
            scale: [33.331, 150.422, 32.506, 5.854],
            at_zero: (0.4828, 0.0115),
        },
    ],
    // Ashton
    [
        // attackers to move
        Model {
            centre: [344.057, 466.211, 222.355, 134.005],
            width: [-6.320, 394.376, 377.895, 245.905],
            scale: [173.116, 275.726, 11.900, -67.277],
            at_zero: (0.0513, 0.1795),
        },
        // defenders to move
        Model {
            centre: [-319.355, -419.723, -214.499, -133.591],
            width: [-6.234, 396.967, 367.190, 239.832],
            scale: [178.793, 264.587, 34.832, -42.498],
            at_zero: (0.1782, 0.0099),
        },
    ],
];
