// Written by `konakis wdl-fit` (docs/winchances.md); not edited by hand.
// konakis wdl-fit --holdout 5 --ridge 0.00001 --data <files below>
// default: default.bin (9850 games)
// KingCapture=English: english.bin (4394 games)
// Ashton: ashton.bin (2996 games)

/// The fitted models: by family (default, KingCapture=English, Ashton), then side to
/// move (attackers, defenders). Coefficients in centi-soldiers, constant term first.
const MODELS: [[Model; 2]; 3] = [
    // default
    [
        // attackers to move
        Model {
            centre: [220.477, 411.495, 150.550, 210.743],
            width: [46.801, -178.042, 729.547, 1047.653],
            scale: [165.413, 356.519, 201.998, -280.457],
        },
        // defenders to move
        Model {
            centre: [-227.227, -13.489, -280.728, -378.565],
            width: [35.012, 111.098, 607.953, 861.430],
            scale: [179.347, 347.383, 191.790, -225.098],
        },
    ],
    // KingCapture=English
    [
        // attackers to move
        Model {
            centre: [145.931, -313.200, -107.204, -31.833],
            width: [22.704, -96.560, -94.966, -28.614],
            scale: [26.956, 152.977, -8.522, -23.431],
        },
        // defenders to move
        Model {
            centre: [-148.313, 361.669, 105.778, 28.307],
            width: [11.652, 69.638, -66.762, -36.701],
            scale: [32.058, 108.449, -61.695, -32.475],
        },
    ],
    // Ashton
    [
        // attackers to move
        Model {
            centre: [329.378, 747.471, -18.549, -17.971],
            width: [-3.029, 253.043, 1019.027, 573.435],
            scale: [160.306, 483.942, -98.490, -203.929],
        },
        // defenders to move
        Model {
            centre: [-309.801, -638.099, -55.507, -40.182],
            width: [-3.945, 295.842, 977.496, 570.507],
            scale: [170.542, 409.818, -26.171, -159.076],
        },
    ],
];
